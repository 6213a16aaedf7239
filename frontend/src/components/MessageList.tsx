import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ChatMessage } from '../state/chatMessages.ts';
import { buildMessageItems } from '../lib/grouping.ts';
import { MessageItem, type MessageHandlers } from './MessageItem.tsx';
import { BackToTop, JumpToLatest } from './BackToTop.tsx';
import { ChannelIntro, type IntroTarget } from './ChannelIntro.tsx';
import { anchorIn, useVirtualRows, VIRTUALIZE_FROM } from './useVirtualRows.ts';
import { useLocale, useT } from '../i18n/i18n.ts';

export const STICK_TO_BOTTOM_PX = 50;
export const BACK_TO_TOP_AFTER_PX = 200;
/** further than this from the bottom, the jump-to-latest control shows */
export const JUMP_TO_LATEST_AFTER_PX = 200;
const LOAD_OLDER_AT_PX = 40;
/** how long a revealed message (a search hit) stays highlighted */
export const HIGHLIGHT_MS = 2000;

interface Props {
  channelId: string;
  /** what the top of a fully loaded history introduces: the channel, or the DM's partner */
  intro: IntroTarget;
  messages: ChatMessage[];
  hasMore: boolean;
  /** the latest page has arrived */
  ready: boolean;
  loadingOlder: boolean;
  onLoadOlder(): void;
  handlers: MessageHandlers;
  /** the message being edited inline */
  editingId: string | null;
  /** scroll this message into view and highlight it briefly once it is in the list (a search hit) */
  focusMessageId?: string | null;
  /** the focused message was scrolled into view */
  onFocusDone?: () => void;
}

export function MessageList({
  channelId,
  intro,
  messages,
  hasMore,
  ready,
  loadingOlder,
  onLoadOlder,
  handlers,
  editingId,
  focusMessageId = null,
  onFocusDone,
}: Props) {
  const t = useT();
  const listRef = useRef<HTMLDivElement>(null);
  const innerRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  /** the list as last laid out: what a change compares against (anchor: the first message row in view) */
  const snapshot = useRef({
    channelId: '',
    firstKey: '',
    lastKey: '',
    height: 0,
    top: 0,
    anchor: null as ReturnType<typeof anchorIn>,
  });
  const [showTop, setShowTop] = useState(false);
  const [showLatest, setShowLatest] = useState(false);
  /** messages of others that arrived below while the reader was scrolled up */
  const [unseen, setUnseen] = useState(0);
  const [highlightId, setHighlightId] = useState<string | null>(null);
  const locale = useLocale();
  // the day separators are words of the active language: a change of language builds them again
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const items = useMemo(() => buildMessageItems(messages), [messages, locale]);
  // a long history renders only the rows in and near the view (useVirtualRows.ts)
  const { VirtualRows, handle: virtualHandle, switchAnchor } = useVirtualRows(items.length, listRef);
  const virtualOn = useRef(false);
  virtualOn.current = Boolean(VirtualRows);
  /** frames spent waiting for a revealed row to render (virtual rows render it after scrolling to it) */
  const [revealTick, setRevealTick] = useState(0);

  const maybeLoadOlder = useCallback(() => {
    const el = listRef.current;
    if (!el || !ready || !hasMore || loadingOlder || messages.length === 0) return;
    if (el.scrollTop <= LOAD_OLDER_AT_PX || el.scrollHeight <= el.clientHeight) onLoadOlder();
  }, [ready, hasMore, loadingOlder, messages.length, onLoadOlder]);

  const remember = (el: HTMLElement) => {
    snapshot.current.height = el.scrollHeight;
    snapshot.current.top = el.scrollTop;
    snapshot.current.anchor = anchorIn(el);
  };

  /** The floating controls follow the position; at the bottom, nothing below is unseen any more. */
  const showPosition = (el: HTMLElement) => {
    const fromBottom = el.scrollHeight - el.scrollTop - el.clientHeight;
    setShowTop(el.scrollTop > BACK_TO_TOP_AFTER_PX);
    setShowLatest(fromBottom > JUMP_TO_LATEST_AFTER_PX);
    if (fromBottom <= STICK_TO_BOTTOM_PX) setUnseen(0);
  };

  const onScroll = () => {
    const el = listRef.current;
    if (!el) return;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_TO_BOTTOM_PX;
    showPosition(el);
    remember(el);
    maybeLoadOlder();
  };

  // Rows grow after they are rendered: an image's signed link and then its pixels, a link preview's picture, a
  // font. At the bottom, the list stays at the bottom through that growth; scrolled up, the browser's scroll
  // anchoring keeps the rows in view where they were. The scroll box itself shrinks too (reply bar, typing line).
  useEffect(() => {
    const el = listRef.current;
    const inner = innerRef.current;
    if (!el || !inner || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      // virtual rows: the library follows the growth itself (VirtualRows.tsx)
      if (stick.current && !virtualOn.current) el.scrollTop = el.scrollHeight;
      remember(el);
    });
    observer.observe(inner);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  /** To the newest message: through the virtual rows' library while they are shown, so it knows where the view is. */
  const toBottom = (el: HTMLElement) => {
    if (virtualOn.current && virtualHandle.current) virtualHandle.current.toEnd();
    else el.scrollTop = el.scrollHeight;
    stick.current = true;
  };

  const jumpToLatest = () => {
    const el = listRef.current;
    if (!el) return;
    toBottom(el);
    setUnseen(0);
  };

  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const prev = snapshot.current;
    const firstKey = messages[0]?.key ?? '';
    const last = messages[messages.length - 1];
    const lastKey = last?.key ?? '';
    if (prev.channelId !== channelId) {
      toBottom(el);
    } else if (firstKey !== prev.firstKey && lastKey === prev.lastKey && prev.firstKey) {
      // older page prepended: keep the same messages in view, by the row that was at the top: the rows above it
      // changed, and so may it (the day label above the first row moves up). Virtual rows: through the library
      if (virtualOn.current) {
        if (prev.anchor) virtualHandle.current?.placeAt(prev.anchor.key, prev.anchor.offset);
      } else {
        const row =
          prev.anchor &&
          [...el.querySelectorAll<HTMLElement>('[data-message-id]')].find(
            (r) => r.dataset.messageId === prev.anchor!.key,
          );
        if (row) el.scrollTop += row.getBoundingClientRect().top - el.getBoundingClientRect().top - prev.anchor!.offset;
        else el.scrollTop = prev.top + (el.scrollHeight - prev.height);
      }
    } else if (stick.current || (lastKey !== prev.lastKey && last?.own && last.status === 'sending')) {
      // within 50 px of the bottom: stay there (new message, reaction, edit, preview); my own send always scrolls
      toBottom(el);
    } else if (lastKey !== prev.lastKey && prev.lastKey) {
      // scrolled up: count what others sent below since the last row we had
      const from = messages.findIndex((m) => m.key === prev.lastKey);
      if (from >= 0) setUnseen((n) => n + messages.slice(from + 1).filter((m) => !m.own && m.type !== 'system').length);
    }
    snapshot.current = { ...snapshot.current, channelId, firstKey, lastKey };
    remember(el);
    showPosition(el);
    // per change of the rows; toBottom and the handle read refs only
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [channelId, messages]);

  // switching to virtual rows: the row that was at the top of the view stays there
  useLayoutEffect(() => {
    const anchor = switchAnchor.current;
    if (!VirtualRows || !anchor) return;
    switchAnchor.current = null;
    if (stick.current) virtualHandle.current?.toEnd();
    else virtualHandle.current?.placeAt(anchor.key, anchor.offset);
  }, [VirtualRows, switchAnchor, virtualHandle]);

  // a message to reveal: once its row is rendered (older pages may still be loading), centre it and highlight it;
  // after the effects above, so it wins over the jump to the bottom of a newly opened channel
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!focusMessageId || !el) return;
    const row = [...el.querySelectorAll<HTMLElement>('[data-message-id]')].find(
      (r) => r.dataset.messageId === focusMessageId,
    );
    if (!row) {
      // virtual rows: scroll to it, then look again once it has rendered
      if (revealTick < 10 && virtualHandle.current?.reveal(focusMessageId))
        requestAnimationFrame(() => setRevealTick((n) => n + 1));
      return;
    }
    const box = el.getBoundingClientRect();
    const at = row.getBoundingClientRect();
    el.scrollTop += at.top - box.top - Math.max(0, (el.clientHeight - at.height) / 2);
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_TO_BOTTOM_PX;
    remember(el);
    showPosition(el);
    setHighlightId(focusMessageId);
    onFocusDone?.();
  }, [focusMessageId, messages, onFocusDone, revealTick, virtualHandle]);
  useEffect(() => {
    if (!highlightId) return;
    const t = setTimeout(() => setHighlightId(null), HIGHLIGHT_MS);
    return () => clearTimeout(t);
  }, [highlightId]);

  const renderItem = (item: (typeof items)[number]) =>
    item.kind === 'day' ? (
      <div key={item.key} className="day-separator" data-testid="day-separator">
        <span>{item.label}</span>
      </div>
    ) : (
      <MessageItem
        key={item.key}
        message={item.message}
        showHeader={item.showHeader}
        handlers={handlers}
        editing={editingId !== null && item.message.id === editingId}
        highlighted={highlightId !== null && item.message.id === highlightId}
      />
    );

  // a short channel with older history: the list cannot scroll yet, so load more right away
  useLayoutEffect(() => {
    maybeLoadOlder();
  }, [maybeLoadOlder]);

  return (
    <div className="message-pane">
      <div
        className="message-scroll"
        ref={listRef}
        onScroll={onScroll}
        data-testid="message-list"
        aria-live="polite"
        aria-relevant="additions"
      >
        <div className="message-list-inner" ref={innerRef}>
          {!ready && messages.length === 0 && (
            <div className="list-loader" data-testid="loading-messages">
              <span className="spinner spinner-sm" /> {t('room.list.loading')}
            </div>
          )}
          {ready && !hasMore && !loadingOlder && <ChannelIntro target={intro} hasMessages={messages.length > 0} />}
          {VirtualRows ? (
            <VirtualRows
              items={items}
              scrollRef={listRef}
              renderItem={renderItem}
              handle={virtualHandle}
              endThreshold={STICK_TO_BOTTOM_PX}
            />
          ) : (
            // until the virtual rows' code has arrived, a long history shows its newest rows only (where it opens)
            (items.length > VIRTUALIZE_FROM ? items.slice(-VIRTUALIZE_FROM) : items).map(renderItem)
          )}
        </div>
      </div>
      {/* outside the scroll box: a control (or the loader) that appears must not move the rows being read */}
      {loadingOlder && (
        <div className="list-loader list-loader-overlay" data-testid="loading-older">
          <span className="spinner spinner-sm" /> {t('room.list.loadingOlder')}
        </div>
      )}
      {showTop && <BackToTop onClick={() => listRef.current?.scrollTo({ top: 0, behavior: 'smooth' })} />}
      {showLatest && <JumpToLatest count={unseen} onClick={jumpToLatest} />}
    </div>
  );
}
