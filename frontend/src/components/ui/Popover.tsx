/**
 * A popover on Radix (a non-modal floating panel: Escape and a click outside close it, focus moves into it on open
 * and back to the trigger on close, positioned to stay on screen).
 *
 * Usage (e.g. the emoji picker):
 *   <Popover label="Add reaction"
 *     trigger={<button type="button" className="icon-button" aria-label="Add reaction"><SmileIcon /></button>}>
 *     <EmojiGrid onPick={(e) => react(e)} />
 *   </Popover>
 * Control it with `open` / `onOpenChange` (close after a pick: onPick={() => { react(e); setOpen(false); }}).
 * Heavy content (the full emoji picker) should be React.lazy inside the popover so it loads only when opened.
 *
 * Radix's popover is a chunk of its own, fetched when the first popover's trigger renders: until it arrives the
 * trigger shows on its own (the initial JavaScript budget, bundle-budget.ts).
 */
import { lazy, Suspense } from 'react';
import type { PopoverProps } from './overlayProps.ts';

const RadixPopoverView = lazy(() => import('./RadixPopover.tsx'));

export function Popover(props: PopoverProps) {
  return (
    <Suspense fallback={props.trigger}>
      <RadixPopoverView {...props} />
    </Suspense>
  );
}
