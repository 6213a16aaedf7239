/**
 * A tooltip on Radix: shown on hover and on keyboard focus, hidden on Escape, linked to its trigger with
 * aria-describedby. It describes; it does not name: icon-only buttons still need their own aria-label.
 *
 * Usage:
 *   <Tooltip content="Create channel (Ctrl+N)">
 *     <button type="button" className="icon-button" aria-label="Create channel"><PlusIcon /></button>
 *   </Tooltip>
 * The child must be one element that forwards its ref (a DOM element is fine).
 *
 * Radix's tooltip is a chunk of its own, fetched when the first tooltip renders: until it arrives the child shows
 * without its tooltip, so the room does not wait for it (the initial JavaScript budget, bundle-budget.ts).
 */
import { lazy, Suspense } from 'react';
import type { TooltipProps } from './overlayProps.ts';

const RadixTooltipView = lazy(() => import('./RadixTooltip.tsx'));

export function Tooltip(props: TooltipProps) {
  return (
    <Suspense fallback={props.children}>
      <RadixTooltipView {...props} />
    </Suspense>
  );
}
