/**
 * Sending "I am typing" for one composer (docs/product/messages.md M11): typing-start on the first non-empty
 * input, again every LIMITS.typingRefreshMs while the user keeps typing (receivers drop an indicator that is not
 * refreshed), typing-stop after LIMITS.typingStopMs without typing, when the input is emptied, and on send.
 * Timers are injected so the rules can be tested with fake time.
 */
import { LIMITS } from '@ephemera/proto/client';

export interface TypingClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: TypingClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export class TypingSender {
  private typing = false;
  private lastStartAt = 0;
  private idleTimer: unknown = null;

  constructor(
    /** true: typing-start, false: typing-stop */
    private readonly send: (typing: boolean) => void,
    private readonly clock: TypingClock = realClock,
    private readonly stopAfterMs: number = LIMITS.typingStopMs,
    private readonly refreshMs: number = LIMITS.typingRefreshMs,
  ) {}

  get isTyping(): boolean {
    return this.typing;
  }

  /** The draft changed to `value`. */
  input(value: string): void {
    if (value.trim().length === 0) {
      this.stop();
      return;
    }
    const now = this.clock.now();
    if (!this.typing || now - this.lastStartAt >= this.refreshMs) {
      this.typing = true;
      this.lastStartAt = now;
      this.send(true);
    }
    this.clearIdle();
    this.idleTimer = this.clock.setTimeout(() => {
      this.idleTimer = null;
      this.stop();
    }, this.stopAfterMs);
  }

  /** Sent, emptied, left the channel or unmounted: typing-stop if a start was sent. */
  stop(): void {
    this.clearIdle();
    if (!this.typing) return;
    this.typing = false;
    this.send(false);
  }

  private clearIdle(): void {
    if (this.idleTimer !== null) this.clock.clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
