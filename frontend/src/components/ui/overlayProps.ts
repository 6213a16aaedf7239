/**
 * The props of the tooltip, popover and menus (Tooltip.tsx, Popover.tsx, Menu.tsx), apart from them: each of those
 * loads its Radix view (Radix*.tsx) on demand, and both sides read these types.
 */
import type { ReactElement, ReactNode } from 'react';

export interface TooltipProps {
  content: ReactNode;
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
  /** ms before it shows on hover */
  delay?: number;
}

export interface PopoverProps {
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

export interface MenuEntry {
  label: ReactNode;
  onSelect(): void;
  icon?: ReactNode;
  /** red text, for destructive actions */
  danger?: boolean;
  disabled?: boolean;
  testId?: string;
}

export interface MenuProps {
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

export interface ContextMenuProps {
  children: ReactElement;
  items: (MenuEntry | 'separator')[];
  label: string;
  onOpenChange?(open: boolean): void;
  testId?: string;
}
