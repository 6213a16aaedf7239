/**
 * When the message list switches to virtual rows (docs/product/messages.md M21), and keeping the reader's place
 * across the switch. The rows' code (VirtualRows.tsx, with @tanstack/react-virtual) is a chunk of its own, fetched
 * once a conversation holds PRELOAD_FROM rows, so it is there when the list reaches VIRTUALIZE_FROM; a conversation
 * that never grows that long never downloads it.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { VirtualRowsHandle } from './VirtualRows.tsx';

/** rows (messages and day separators) from which only those in and near the view are rendered */
export const VIRTUALIZE_FROM = 120;
const PRELOAD_FROM = 40;

type VirtualModule = typeof import('./VirtualRows.tsx');
let loaded: VirtualModule | null = null;

/** The first message row in view and how far below the top of the scroll box it is. */
export function anchorIn(el: HTMLElement | null): { key: string; offset: number } | null {
  if (!el) return null;
  const top = el.getBoundingClientRect().top;
  for (const row of el.querySelectorAll<HTMLElement>('[data-message-id]')) {
    const box = row.getBoundingClientRect();
    if (box.bottom > top) return { key: row.dataset.messageId!, offset: box.top - top };
  }
  return null;
}

export function useVirtualRows(rowCount: number, scrollRef: RefObject<HTMLDivElement | null>) {
  const [module, setModule] = useState<VirtualModule | null>(loaded);
  const wanted = rowCount >= PRELOAD_FROM;
  useEffect(() => {
    if (!wanted || module) return;
    let live = true;
    void import('./VirtualRows.tsx').then(
      (m) => {
        loaded = m;
        if (live) setModule(m);
      },
      () => {
        /* plain rows go on */
      },
    );
    return () => {
      live = false;
    };
  }, [wanted, module]);

  // once virtual, stays virtual for this conversation (a deletion does not bring every row back)
  const virtualSince = useRef(false);
  /** the reader's place in the plain rows, taken as the list switches (read before the plain rows go) */
  const switchAnchor = useRef<{ key: string; offset: number } | null>(null);
  const virtual = Boolean(module) && (virtualSince.current || rowCount >= VIRTUALIZE_FROM);
  if (virtual && !virtualSince.current) {
    virtualSince.current = true;
    switchAnchor.current = anchorIn(scrollRef.current);
  }
  const handle = useRef<VirtualRowsHandle | null>(null);
  return { VirtualRows: virtual ? module!.VirtualRows : null, handle, switchAnchor };
}
