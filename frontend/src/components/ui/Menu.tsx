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
 *
 * Radix's menus are a chunk of their own (RadixMenu.tsx), fetched when the first menu renders: until it arrives the
 * trigger (or the context menu's child) shows on its own, so the room does not wait for them (the initial JavaScript
 * budget, bundle-budget.ts).
 */
import { lazy, Suspense } from 'react';
import type { MenuProps, ContextMenuProps } from './overlayProps.ts';

export type { MenuEntry } from './overlayProps.ts';

const RadixMenu = lazy(() => import('./RadixMenu.tsx').then((m) => ({ default: m.Menu })));
const RadixContextMenu = lazy(() => import('./RadixMenu.tsx').then((m) => ({ default: m.ContextMenu })));

export function Menu(props: MenuProps) {
  return (
    <Suspense fallback={props.trigger}>
      <RadixMenu {...props} />
    </Suspense>
  );
}

export function ContextMenu(props: ContextMenuProps) {
  return (
    <Suspense fallback={props.children}>
      <RadixContextMenu {...props} />
    </Suspense>
  );
}
