/**
 * Presence (docs/product/messages.md M13): away when the tab is hidden or the window loses focus, online on focus;
 * changes are suppressed while the user is typing in a text field (typing ends 500 ms after focus leaves the field).
 * The user may choose Busy (the sidebar's status menu): it holds whatever the tab does until they choose Online,
 * which hands presence back to the tab. The decision is a small class over injected timers (unit-tested);
 * usePresenceTracker binds it to the document and window.
 */
import { useCallback, useEffect, useRef } from 'react';
import type { PresenceStatus } from '@ephemera/proto';

export const TYPING_GUARD_MS = 500;

type Timer = ReturnType<typeof setTimeout>;
/** what the user may choose; away is never chosen, it follows the tab */
export type ChosenStatus = 'online' | 'busy';

export class PresenceTracker {
  private typing = false;
  private typingEnd: Timer | null = null;
  private present = true;
  private chosen: ChosenStatus = 'online';
  private sent: PresenceStatus = 'online';

  constructor(private readonly send: (status: PresenceStatus) => void) {}

  /** tab hidden / window blurred (away) or visible / focused (online) */
  attention(present: boolean): void {
    this.present = present;
    this.flush();
  }

  /** the user's own choice: it goes out at once, even inside the typing guard (a click, not a glance away) */
  choose(status: ChosenStatus): void {
    this.chosen = status;
    this.flush(true);
  }

  /** focus entered a text field: presence changes wait until typing ends */
  fieldFocused(): void {
    if (this.typingEnd) clearTimeout(this.typingEnd);
    this.typingEnd = null;
    this.typing = true;
  }

  /** focus left the text field: typing ends 500 ms later, then the latest wanted status goes out */
  fieldBlurred(): void {
    if (this.typingEnd) clearTimeout(this.typingEnd);
    this.typingEnd = setTimeout(() => {
      this.typingEnd = null;
      this.typing = false;
      this.flush();
    }, TYPING_GUARD_MS);
  }

  dispose(): void {
    if (this.typingEnd) clearTimeout(this.typingEnd);
  }

  private wanted(): PresenceStatus {
    if (this.chosen === 'busy') return 'busy';
    return this.present ? 'online' : 'away';
  }

  private flush(chosenNow = false): void {
    const wanted = this.wanted();
    if ((this.typing && !chosenNow) || wanted === this.sent) return;
    this.sent = wanted;
    this.send(wanted);
  }
}

const isTextField = (el: EventTarget | null): boolean => {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el.tagName === 'TEXTAREA') return true;
  return (
    el.tagName === 'INPUT' &&
    !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color'].includes(
      (el as HTMLInputElement).type,
    )
  );
};

/**
 * Bind the tracker to visibilitychange, window focus/blur and text-field focus while mounted; returns the user's
 * choice (Online or Busy) for the status menu.
 */
export function usePresenceTracker(send: (status: PresenceStatus) => void): (status: ChosenStatus) => void {
  const current = useRef<PresenceTracker | null>(null);
  useEffect(() => {
    const tracker = new PresenceTracker(send);
    current.current = tracker;
    const onVisibility = () => tracker.attention(document.visibilityState !== 'hidden');
    const onBlur = () => tracker.attention(false);
    const onFocus = () => tracker.attention(document.visibilityState !== 'hidden');
    const onFocusIn = (e: FocusEvent) => {
      if (isTextField(e.target)) tracker.fieldFocused();
    };
    const onFocusOut = (e: FocusEvent) => {
      if (isTextField(e.target)) tracker.fieldBlurred();
    };
    // a room opened in a background tab starts away
    if (document.visibilityState === 'hidden') tracker.attention(false);
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('blur', onBlur);
    window.addEventListener('focus', onFocus);
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', onFocusOut);
    return () => {
      tracker.dispose();
      if (current.current === tracker) current.current = null;
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('blur', onBlur);
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', onFocusOut);
    };
  }, [send]);
  return useCallback((status: ChosenStatus) => current.current?.choose(status), []);
}
