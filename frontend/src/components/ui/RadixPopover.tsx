/** Popover.tsx's popover on Radix, in its own chunk: loaded as the first popover's trigger shows (see Popover.tsx). */
import * as RadixPopover from '@radix-ui/react-popover';
import type { PopoverProps } from './overlayProps.ts';

export default function RadixPopoverView({
  trigger,
  children,
  label,
  open,
  onOpenChange,
  side = 'top',
  align = 'center',
  className,
  testId,
}: PopoverProps) {
  return (
    <RadixPopover.Root open={open} onOpenChange={onOpenChange}>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content
          className={`ui-popover${className ? ` ${className}` : ''}`}
          aria-label={label}
          side={side}
          align={align}
          sideOffset={6}
          collisionPadding={8}
          data-testid={testId}
        >
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}
