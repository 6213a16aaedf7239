/**
 * A popover on Radix (a non-modal floating panel: Escape and a click outside close it, focus moves into it on open
 * and back to the trigger on close, positioned to stay on screen).
 *
 * Usage (e.g. the emoji picker):
 *   <Popover label="Add reaction"
 *     trigger={<button type="button" className="icon-button" aria-label="Add reaction"><SmileIcon /></button>}>
 *     <EmojiGrid onPick={(e) => react(e)} />
 *   </Popover>
 * Close it from inside with <PopoverClose asChild><button>Done</button></PopoverClose>, or control it with
 * `open` / `onOpenChange` (close after a pick: onPick={() => { react(e); setOpen(false); }}).
 * Heavy content (the full emoji picker) should be React.lazy inside the popover so it loads only when opened.
 */
import type { ReactElement, ReactNode } from 'react';
import * as RadixPopover from '@radix-ui/react-popover';

export const PopoverClose = RadixPopover.Close;

interface PopoverProps {
  trigger: ReactElement;
  children: ReactNode;
  /** accessible name of the panel (role=dialog) */
  label: string;
  open?: boolean;
  onOpenChange?(open: boolean): void;
  side?: 'top' | 'right' | 'bottom' | 'left';
  align?: 'start' | 'center' | 'end';
  className?: string;
  testId?: string;
}

export function Popover({
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
