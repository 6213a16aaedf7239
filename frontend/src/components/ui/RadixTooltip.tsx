/** Tooltip.tsx's tooltip on Radix, in its own chunk: loaded after the room shows (see Tooltip.tsx). */
import * as RadixTooltip from '@radix-ui/react-tooltip';
import type { TooltipProps } from './overlayProps.ts';

export default function RadixTooltipView({ content, children, side = 'top', delay = 400 }: TooltipProps) {
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
