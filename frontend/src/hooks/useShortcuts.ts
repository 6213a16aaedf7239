/**
 * The room page's keyboard shortcuts (docs/product/rooms.md R19), outside text fields only:
 *   /             focus the sidebar search (the input with id SIDEBAR_SEARCH_ID)
 *   Escape        clear the search and close menus (components subscribe with useEscapeShortcut)
 *   Ctrl/Cmd+N    open Create Channel (owner or admin only)
 *   Ctrl/Cmd+S    toggle the settings panel
 * Escape also works inside the search field itself (it clears it). A key another handler already took
 * (defaultPrevented: an open dialog or menu closing on Escape) is left alone, and nothing but Escape fires while a
 * modal dialog is open.
 *
 * `shortcutFor` is the pure decision (unit-tested); `useShortcuts` binds it to window keydown.
 */
import { useEffect, useRef } from 'react';

/** The element id of the sidebar search input. */
export const SIDEBAR_SEARCH_ID = 'sidebar-search';

export type ShortcutAction = 'focusSearch' | 'escape' | 'createChannel' | 'toggleSettings';

export interface KeyEventLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  defaultPrevented: boolean;
  isComposing?: boolean;
  target: unknown;
}

export interface ShortcutContext {
  canCreateChannel: boolean;
  /** a modal dialog is open: only Escape (handled by the dialog itself first) gets through */
  modalOpen: boolean;
}

interface ElementLike {
  tagName?: string;
  id?: string;
  type?: string;
  isContentEditable?: boolean;
}

const NON_TEXT_INPUTS = new Set(['button', 'checkbox', 'radio', 'range', 'color', 'file', 'submit', 'reset', 'image']);

/** A field that takes typed text: textarea, select, text-like input, contenteditable. */
export function isTextField(target: unknown): boolean {
  if (!target || typeof target !== 'object') return false;
  const el = target as ElementLike;
  if (el.isContentEditable) return true;
  const tag = (el.tagName ?? '').toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !NON_TEXT_INPUTS.has((el.type ?? 'text').toLowerCase());
  return false;
}

export function shortcutFor(e: KeyEventLike, ctx: ShortcutContext): ShortcutAction | null {
  if (e.defaultPrevented || e.isComposing) return null;
  const inSearch = (e.target as ElementLike | null)?.id === SIDEBAR_SEARCH_ID;
  if (e.key === 'Escape' || e.key === 'Esc') {
    return !isTextField(e.target) || inSearch ? 'escape' : null;
  }
  if (isTextField(e.target) || ctx.modalOpen) return null;
  const mod = e.ctrlKey || e.metaKey;
  // '/' may need Shift on some layouts (Shift+7 on a German keyboard)
  if (e.key === '/' && !mod && !e.altKey) return 'focusSearch';
  if (mod && !e.altKey && !e.shiftKey) {
    const k = e.key.toLowerCase();
    if (k === 'n') return ctx.canCreateChannel ? 'createChannel' : null;
    if (k === 's') return 'toggleSettings';
  }
  return null;
}

// ---- Escape subscribers (the search box, the DM menu, ...) ----

const escapeListeners = new Set<() => void>();

/** Run `onEscape` when the Escape shortcut fires (e.g. clear the search query, close a menu). */
export function useEscapeShortcut(onEscape: () => void): void {
  const ref = useRef(onEscape);
  ref.current = onEscape;
  useEffect(() => {
    const listener = () => ref.current();
    escapeListeners.add(listener);
    return () => {
      escapeListeners.delete(listener);
    };
  }, []);
}

/** Tell every useEscapeShortcut subscriber (exported for tests and for callers that handle Escape themselves). */
export function emitEscape(): void {
  for (const l of [...escapeListeners]) l();
}

export interface ShortcutHandlers {
  focusSearch(): void;
  /** besides the useEscapeShortcut subscribers */
  escape?(): void;
  createChannel(): void;
  toggleSettings(): void;
}

function anyModalOpen(): boolean {
  return document.querySelector('[role="dialog"][aria-modal="true"], [role="alertdialog"][aria-modal="true"]') !== null;
}

/** Bind the shortcuts to window keydown while `enabled`. */
export function useShortcuts(
  handlers: ShortcutHandlers,
  { canCreateChannel, enabled = true }: { canCreateChannel: boolean; enabled?: boolean },
): void {
  const ref = useRef({ handlers, canCreateChannel });
  ref.current = { handlers, canCreateChannel };
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      const { handlers: h, canCreateChannel: canCreate } = ref.current;
      const action = shortcutFor(e, { canCreateChannel: canCreate, modalOpen: anyModalOpen() });
      if (!action) return;
      switch (action) {
        case 'focusSearch':
          e.preventDefault(); // the '/' is not typed into the search box
          h.focusSearch();
          break;
        case 'escape':
          emitEscape();
          h.escape?.();
          if ((e.target as ElementLike | null)?.id === SIDEBAR_SEARCH_ID) (e.target as HTMLElement).blur();
          break;
        case 'createChannel':
          e.preventDefault();
          h.createChannel();
          break;
        case 'toggleSettings':
          e.preventDefault(); // not the browser's Save Page
          h.toggleSettings();
          break;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
