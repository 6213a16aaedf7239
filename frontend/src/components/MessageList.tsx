import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ChatMessage } from '../state/chatMessages.ts';
import { buildMessageItems } from '../lib/grouping.ts';
import { MessageItem, type MessageHandlers } from './MessageItem.tsx';
import { BackToTop } from './BackToTop.tsx';
import { HashIcon } from './Icons.tsx';

export const STICK_TO_BOTTOM_PX = 50;
export const BACK_TO_TOP_AFTER_PX = 200;
const LOAD_OLDER_AT_PX = 40;
/** how long a revealed message (a search hit) stays highlighted */
export const HIGHLIGHT_MS = 2000;

interface Props {
  channelId: string;
  channelName: string;
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
  channelId, channelName, messages, hasMore, ready, loadingOlder, onLoadOlder, handlers, editingId, focusMessageId = null, onFocusDone,
}: Props) {
  const listRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const snapshot = useRef({ channelId: '', firstKey: '', lastKey: '', height: 0, top: 0 });
  const [showTop, setShowTop] = useState(false);
  const [highlightId, setHighlightId] = useState<string | null>(null);
  const items = useMemo(() => buildMessageItems(messages), [messages]);

  const maybeLoadOlder = useCallback(() => {
    const el = listRef.current;
    if (!el || !ready || !hasMore || loadingOlder || messages.length === 0) return;
    if (el.scrollTop <= LOAD_OLDER_AT_PX || el.scrollHeight <= el.clientHeight) onLoadOlder();
  }, [ready, hasMore, loadingOlder, messages.length, onLoadOlder]);

  const onScroll = () => {
    const el = listRef.current;
    if (!el) return;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_TO_BOTTOM_PX;
    setShowTop(el.scrollTop > BACK_TO_TOP_AFTER_PX);
    snapshot.current.height = el.scrollHeight;
    snapshot.current.top = el.scrollTop;
    maybeLoadOlder();
  };

  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const prev = snapshot.current;
    const firstKey = messages[0]?.key ?? '';
    const last = messages[messages.length - 1];
    const lastKey = last?.key ?? '';
    if (prev.channelId !== channelId) {
      el.scrollTop = el.scrollHeight;
      stick.current = true;
    } else if (firstKey !== prev.firstKey && lastKey === prev.lastKey && prev.firstKey) {
      // older page prepended: keep the same messages in view
      el.scrollTop = prev.top + (el.scrollHeight - prev.height);
    } else if (stick.current || (lastKey !== prev.lastKey && last?.own && last.status === 'sending')) {
      // within 50 px of the bottom: stay there (new message, reaction, edit, preview); my own send always scrolls
      el.scrollTop = el.scrollHeight;
      stick.current = true;
    }
    snapshot.current = { channelId, firstKey, lastKey, height: el.scrollHeight, top: el.scrollTop };
    setShowTop(el.scrollTop > BACK_TO_TOP_AFTER_PX);
  }, [channelId, messages]);

  // a message to reveal: once its row is rendered (older pages may still be loading), centre it and highlight it;
  // after the effects above, so it wins over the jump to the bottom of a newly opened channel
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!focusMessageId || !el) return;
    const row = [...el.querySelectorAll<HTMLElement>('[data-message-id]')].find((r) => r.dataset.messageId === focusMessageId);
    if (!row) return;
    const box = el.getBoundingClientRect();
    const at = row.getBoundingClientRect();
    el.scrollTop += at.top - box.top - Math.max(0, (el.clientHeight - at.height) / 2);
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_TO_BOTTOM_PX;
    snapshot.current.height = el.scrollHeight;
    snapshot.current.top = el.scrollTop;
    setShowTop(el.scrollTop > BACK_TO_TOP_AFTER_PX);
    setHighlightId(focusMessageId);
    onFocusDone?.();
  }, [focusMessageId, messages, onFocusDone]);
  useEffect(() => {
    if (!highlightId) return;
    const t = setTimeout(() => setHighlightId(null), HIGHLIGHT_MS);
    return () => clearTimeout(t);
  }, [highlightId]);

  // a short channel with older history: the list cannot scroll yet, so load more right away
  useLayoutEffect(() => { maybeLoadOlder(); }, [maybeLoadOlder]);

  return (
    <div className="message-scroll" ref={listRef} onScroll={onScroll} data-testid="message-list" aria-live="polite" aria-relevant="additions">
      <div className="message-list-inner">
        {loadingOlder && <div className="list-loader" data-testid="loading-older"><span className="spinner spinner-sm" /> Loading older messages…</div>}
        {!ready && messages.length === 0 && <div className="list-loader" data-testid="loading-messages"><span className="spinner spinner-sm" /> Loading messages…</div>}
        {ready && !hasMore && !loadingOlder && (
          <div className="channel-intro">
            <div className="channel-intro-icon"><HashIcon size={26} /></div>
            <h3>Welcome to #{channelName}</h3>
            <p>{messages.length ? 'This is the very beginning of the channel.' : 'No messages yet. Say hello!'}</p>
          </div>
        )}
        {items.map((item) => item.kind === 'day'
          ? <div key={item.key} className="day-separator" data-testid="day-separator"><span>{item.label}</span></div>
          : <MessageItem key={item.key} message={item.message} showHeader={item.showHeader} handlers={handlers}
            editing={editingId !== null && item.message.id === editingId}
            highlighted={highlightId !== null && item.message.id === highlightId} />)}
      </div>
      {showTop && <BackToTop onClick={() => listRef.current?.scrollTo({ top: 0, behavior: 'smooth' })} />}
    </div>
  );
}
