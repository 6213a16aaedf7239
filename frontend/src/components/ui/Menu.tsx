/**
 * Dropdown and context menus on Radix (roving focus with arrow keys, typeahead, Escape closes and returns focus,
 * role=menu / menuitem, closes after a choice).
 *
 * Usage (dropdown: a button opens it):
 *   <Menu label="Conversation actions"
 *     trigger={<button type="button" className="icon-button" aria-label="More actions"><MoreIcon /></button>}
 *     items={[
 *       { label: 'Mark as Read', onSelect: () => markRead(id) },
 *       { label: 'Delete Conversation', onSelect: () => askDelete(id), danger: true },
 *     ]} />
 * Usage (context menu: right click, or a long press on touch, on the child):
 *   <ContextMenu label="Message actions" items={[{ label: 'Reply', onSelect: reply }, { label: 'Copy', onSelect: copy }]}>
 *     <div className="message">...</div>
 *   </ContextMenu>
 * `trigger` and the ContextMenu child must be one element that forwards its ref (a DOM element is fine).
 * Controlled use: pass `open` and `onOpenChange` (e.g. to close the menu on Escape from a shortcut).
 */
import type { ReactElement, ReactNode } from 'react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import * as RadixContextMenu from '@radix-ui/react-context-menu';

export interface MenuEntry {
  label: ReactNode;
  onSelect(): void;
  icon?: ReactNode;
  /** red text, for destructive actions */
  danger?: boolean;
  disabled?: boolean;
  testId?: string;
}

interface MenuProps {
  trigger: ReactElement;
  items: (MenuEntry | 'separator')[];
  /** accessible name of the menu */
  label: string;
  open?: boolean;
  onOpenChange?(open: boolean): void;
  side?: 'top' | 'right' | 'bottom' | 'left';
  align?: 'start' | 'center' | 'end';
  testId?: string;
}

export function Menu({ trigger, items, label, open, onOpenChange, side = 'bottom', align = 'end', testId }: MenuProps) {
  return (
    <DropdownMenu.Root open={open} onOpenChange={onOpenChange}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="ui-menu"
          aria-label={label}
          side={side}
          align={align}
          sideOffset={4}
          collisionPadding={8}
          data-testid={testId}
        >
          {items.map((item, i) =>
            item === 'separator' ? (
              <DropdownMenu.Separator key={`sep-${i}`} className="ui-menu-separator" />
            ) : (
              <DropdownMenu.Item
                key={i}
                className={`ui-menu-item${item.danger ? ' danger' : ''}`}
                disabled={item.disabled}
                onSelect={() => item.onSelect()}
                data-testid={item.testId}
              >
                {item.icon && (
                  <span className="ui-menu-icon" aria-hidden="true">
                    {item.icon}
                  </span>
                )}
                <span>{item.label}</span>
              </DropdownMenu.Item>
            ),
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

interface ContextMenuProps {
  children: ReactElement;
  items: (MenuEntry | 'separator')[];
  label: string;
  onOpenChange?(open: boolean): void;
  testId?: string;
}

export function ContextMenu({ children, items, label, onOpenChange, testId }: ContextMenuProps) {
  return (
    <RadixContextMenu.Root onOpenChange={onOpenChange}>
      <RadixContextMenu.Trigger asChild>{children}</RadixContextMenu.Trigger>
      <RadixContextMenu.Portal>
        <RadixContextMenu.Content className="ui-menu" aria-label={label} collisionPadding={8} data-testid={testId}>
          {items.map((item, i) =>
            item === 'separator' ? (
              <RadixContextMenu.Separator key={`sep-${i}`} className="ui-menu-separator" />
            ) : (
              <RadixContextMenu.Item
                key={i}
                className={`ui-menu-item${item.danger ? ' danger' : ''}`}
                disabled={item.disabled}
                onSelect={() => item.onSelect()}
                data-testid={item.testId}
              >
                {item.icon && (
                  <span className="ui-menu-icon" aria-hidden="true">
                    {item.icon}
                  </span>
                )}
                <span>{item.label}</span>
              </RadixContextMenu.Item>
            ),
          )}
        </RadixContextMenu.Content>
      </RadixContextMenu.Portal>
    </RadixContextMenu.Root>
  );
}
