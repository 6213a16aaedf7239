/**
 * The message list's rows for a long history (docs/product/messages.md M21): only the rows in and near the view are
 * in the page (@tanstack/react-virtual), each measured as it renders, so 10,000 loaded messages keep a few hundred
 * elements. Loaded on demand (MessageList.tsx imports it once a conversation is long): the room page's initial
 * JavaScript stays within its budget (docs/product/performance.md PF17).
 *
 * The library keeps the place: anchored at the end as a chat is (rows added above keep what is in view where it is; at
 * the bottom it follows new rows and rows that grow, such as an image that loads), and a row above the view whose
 * measured height differs from its estimate moves the scroll position by the difference. MessageList scrolls through
 * the handle below while these rows are shown, so the library's idea of the position stays the browser's.
 */
import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ListItem as Row } from '../lib/grouping.ts';
import type { ChatMessage } from '../state/chatMessages.ts';

type ListItem = Row<ChatMessage>;

/** What MessageList may ask of the rows it does not render itself. */
export interface VirtualRowsHandle {
  /** bring a row into the page, centred (a search hit); false when there is no such row */
  reveal(key: string): boolean;
  /** scroll so that a row's top is `offset` px below the top of the view (the place kept across the switch) */
  placeAt(key: string, offset: number): void;
  /** to the newest row */
  toEnd(): void;
}

interface Props {
  items: ListItem[];
  scrollRef: RefObject<HTMLDivElement | null>;
  renderItem(item: ListItem): ReactNode;
  handle: RefObject<VirtualRowsHandle | null>;
  /** px from the bottom that still count as at the bottom */
  endThreshold: number;
}

/** Rows rendered beyond the view on each side: enough for a fast wheel turn without blank space. */
const OVERSCAN = 6;
const estimate = (item: ListItem | undefined) => (item?.kind === 'day' ? 44 : item?.message.file ? 240 : 56);

export function VirtualRows({ items, scrollRef, renderItem, handle, endThreshold }: Props) {
  const container = useRef<HTMLDivElement>(null);
  // where the rows start inside the scroll box (the loader and the introduction sit above them)
  const [scrollMargin, setScrollMargin] = useState(0);
  // after every render (the introduction or the loader above may have come or gone); it settles: set only on a change
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    const top = container.current?.offsetTop ?? 0;
    if (top !== scrollMargin) setScrollMargin(top);
  });
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => estimate(items[i]),
    getItemKey: (i) => items[i]!.key,
    overscan: OVERSCAN,
    scrollMargin,
    // the library scrolls its element to this offset when it attaches: the place the plain rows had, not the top
    initialOffset: () => scrollRef.current?.scrollTop ?? 0,
    // a chat: rows added above (older pages) keep the rows in view where they are; at the newest row (within the
    // list's 50 px, docs/product/messages.md M7) the view follows new rows and rows that grow
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: endThreshold,
  });
  handle.current = {
    reveal(key) {
      const index = items.findIndex((item) => item.key === key);
      if (index < 0) return false;
      virtualizer.scrollToIndex(index, { align: 'center' });
      return true;
    },
    placeAt(key, offset) {
      const index = items.findIndex((item) => item.key === key);
      const at = index < 0 ? undefined : virtualizer.getOffsetForIndex(index, 'start');
      if (at) virtualizer.scrollToOffset(at[0] - offset);
    },
    toEnd() {
      virtualizer.scrollToEnd();
    },
  };
  return (
    <div
      ref={container}
      className="virtual-rows"
      style={{ height: virtualizer.getTotalSize() }}
      data-testid="virtual-rows"
    >
      {virtualizer.getVirtualItems().map((row) => (
        <div
          key={row.key}
          data-index={row.index}
          ref={virtualizer.measureElement}
          className="virtual-row"
          style={{ transform: `translateY(${row.start - scrollMargin}px)` }}
        >
          {renderItem(items[row.index]!)}
        </div>
      ))}
    </div>
  );
}
