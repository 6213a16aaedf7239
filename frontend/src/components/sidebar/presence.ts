/**
 * Automatic presence (docs/product/messages.md M13): away when the tab is hidden or the window loses focus,
 * online on focus; changes are suppressed while the user is typing in a text field (typing ends 500 ms after focus
 * leaves the field). The decision is a small class over injected timers (unit-tested); usePresenceTracker binds it
 * to the document and window.
 */
import { useEffect } from 'react';
import type { PresenceStatus } from '@ephemera/proto';

export const TYPING_GUARD_MS = 500;

type Timer = ReturnType<typeof setTimeout>;

export class PresenceTracker {
  private typing = false;
  private typingEnd: Timer | null = null;
  private wanted: PresenceStatus = 'online';
  private sent: PresenceStatus = 'online';

  constructor(private readonly send: (status: PresenceStatus) => void) {}

  /** tab hidden / window blurred (away) or visible / focused (online) */
  attention(present: boolean): void {
    this.wanted = present ? 'online' : 'away';
    this.flush();
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

  private flush(): void {
    if (this.typing || this.wanted === this.sent) return;
    this.sent = this.wanted;
    this.send(this.wanted);
  }
}

const isTextField = (el: EventTarget | null): boolean => {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el.tagName === 'TEXTAREA') return true;
  return el.tagName === 'INPUT' && !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color'].includes((el as HTMLInputElement).type);
};

/** Bind the tracker to visibilitychange, window focus/blur and text-field focus while mounted. */
export function usePresenceTracker(send: (status: PresenceStatus) => void): void {
  useEffect(() => {
    const tracker = new PresenceTracker(send);
    const onVisibility = () => tracker.attention(document.visibilityState !== 'hidden');
    const onBlur = () => tracker.attention(false);
    const onFocus = () => tracker.attention(document.visibilityState !== 'hidden');
    const onFocusIn = (e: FocusEvent) => { if (isTextField(e.target)) tracker.fieldFocused(); };
    const onFocusOut = (e: FocusEvent) => { if (isTextField(e.target)) tracker.fieldBlurred(); };
    // a room opened in a background tab starts away
    if (document.visibilityState === 'hidden') tracker.attention(false);
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('blur', onBlur);
    window.addEventListener('focus', onFocus);
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', onFocusOut);
    return () => {
      tracker.dispose();
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('blur', onBlur);
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', onFocusOut);
    };
  }, [send]);
}
