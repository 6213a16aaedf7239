/**
 * A tooltip on Radix: shown on hover and on keyboard focus, hidden on Escape, linked to its trigger with
 * aria-describedby. It describes; it does not name: icon-only buttons still need their own aria-label.
 *
 * Usage:
 *   <Tooltip content="Create channel (Ctrl+N)">
 *     <button type="button" className="icon-button" aria-label="Create channel"><PlusIcon /></button>
 *   </Tooltip>
 * The child must be one element that forwards its ref (a DOM element is fine).
 */
import type { ReactElement, ReactNode } from 'react';
import * as RadixTooltip from '@radix-ui/react-tooltip';

interface TooltipProps {
  content: ReactNode;
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
  /** ms before it shows on hover */
  delay?: number;
}

export function Tooltip({ content, children, side = 'top', delay = 400 }: TooltipProps) {
  return (
    <RadixTooltip.Provider delayDuration={delay} skipDelayDuration={300}>
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content className="ui-tooltip" side={side} sideOffset={6} collisionPadding={8}>
            {content}
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
