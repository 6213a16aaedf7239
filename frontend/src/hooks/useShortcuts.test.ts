import { describe, expect, it } from 'vitest';
import {
  isTextField,
  shortcutFor,
  SIDEBAR_SEARCH_ID,
  type KeyEventLike,
  type ShortcutContext,
} from './useShortcuts.ts';

const body = { tagName: 'BODY' };
const button = { tagName: 'BUTTON' };
const textarea = { tagName: 'TEXTAREA' };
const input = (type?: string, id?: string) => ({ tagName: 'INPUT', type, id });
const editable = { tagName: 'DIV', isContentEditable: true };

function key(k: string, extra: Partial<KeyEventLike> = {}): KeyEventLike {
  return {
    key: k,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    defaultPrevented: false,
    target: body,
    ...extra,
  };
}
const owner: ShortcutContext = { canCreateChannel: true, modalOpen: false };
const member: ShortcutContext = { canCreateChannel: false, modalOpen: false };

describe('isTextField', () => {
  it('text inputs, textareas, selects and contenteditable are text fields', () => {
    expect(isTextField(textarea)).toBe(true);
    expect(isTextField(input())).toBe(true);
    expect(isTextField(input('search'))).toBe(true);
    expect(isTextField(input('password'))).toBe(true);
    expect(isTextField({ tagName: 'SELECT' })).toBe(true);
    expect(isTextField(editable)).toBe(true);
  });
  it('buttons, checkboxes and the page are not', () => {
    expect(isTextField(body)).toBe(false);
    expect(isTextField(button)).toBe(false);
    expect(isTextField(input('checkbox'))).toBe(false);
    expect(isTextField(null)).toBe(false);
  });
});

describe('shortcutFor', () => {
  it('/ focuses the search, outside text fields only', () => {
    expect(shortcutFor(key('/'), member)).toBe('focusSearch');
    expect(shortcutFor(key('/', { target: button }), member)).toBe('focusSearch');
    expect(shortcutFor(key('/', { shiftKey: true }), member)).toBe('focusSearch'); // Shift+7 on a German layout
    expect(shortcutFor(key('/', { target: textarea }), member)).toBeNull();
    expect(shortcutFor(key('/', { target: input('text', SIDEBAR_SEARCH_ID) }), member)).toBeNull();
    expect(shortcutFor(key('/', { ctrlKey: true }), member)).toBeNull();
  });
  it('Ctrl+N and Cmd+N open create channel for an owner or admin, nothing for a member', () => {
    expect(shortcutFor(key('n', { ctrlKey: true }), owner)).toBe('createChannel');
    expect(shortcutFor(key('n', { metaKey: true }), owner)).toBe('createChannel');
    expect(shortcutFor(key('N', { ctrlKey: true }), owner)).toBe('createChannel'); // caps lock
    expect(shortcutFor(key('n', { ctrlKey: true }), member)).toBeNull();
    expect(shortcutFor(key('n'), owner)).toBeNull();
    expect(shortcutFor(key('n', { ctrlKey: true, shiftKey: true }), owner)).toBeNull();
    expect(shortcutFor(key('n', { ctrlKey: true, target: textarea }), owner)).toBeNull();
  });
  it('Ctrl+S and Cmd+S toggle the settings, for everyone, outside text fields', () => {
    expect(shortcutFor(key('s', { ctrlKey: true }), member)).toBe('toggleSettings');
    expect(shortcutFor(key('s', { metaKey: true }), owner)).toBe('toggleSettings');
    expect(shortcutFor(key('s', { ctrlKey: true, target: input() }), owner)).toBeNull();
    expect(shortcutFor(key('s', { ctrlKey: true, altKey: true }), owner)).toBeNull();
    expect(shortcutFor(key('s'), owner)).toBeNull();
  });
  it('Escape clears search and closes menus outside text fields and in the search field itself', () => {
    expect(shortcutFor(key('Escape'), member)).toBe('escape');
    expect(shortcutFor(key('Escape', { target: input('text', SIDEBAR_SEARCH_ID) }), member)).toBe('escape');
    expect(shortcutFor(key('Escape', { target: textarea }), member)).toBeNull(); // the composer keeps its Escape
  });
  it('a key another handler took (an open dialog closing on Escape), or IME composition, is left alone', () => {
    expect(shortcutFor(key('Escape', { defaultPrevented: true }), member)).toBeNull();
    expect(shortcutFor(key('/', { isComposing: true }), member)).toBeNull();
  });
  it('while a modal dialog is open only Escape passes', () => {
    const modal: ShortcutContext = { canCreateChannel: true, modalOpen: true };
    expect(shortcutFor(key('/'), modal)).toBeNull();
    expect(shortcutFor(key('n', { ctrlKey: true }), modal)).toBeNull();
    expect(shortcutFor(key('s', { ctrlKey: true }), modal)).toBeNull();
    expect(shortcutFor(key('Escape'), modal)).toBe('escape');
  });
  it('other keys do nothing', () => {
    expect(shortcutFor(key('a'), owner)).toBeNull();
    expect(shortcutFor(key('Enter'), owner)).toBeNull();
    expect(shortcutFor(key('k', { ctrlKey: true }), owner)).toBeNull();
  });
});
