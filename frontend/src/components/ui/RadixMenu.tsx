/** Menu.tsx's dropdown and context menus on Radix, in their own chunk: loaded as the first menu renders (see Menu.tsx). */
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import * as RadixContextMenu from '@radix-ui/react-context-menu';
import type { ContextMenuProps, MenuProps } from './overlayProps.ts';

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
