import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '@ephemera/proto/client';
import { TypingSender } from './typingSender.ts';

describe('TypingSender (docs/product/messages.md M11)', () => {
  let sent: boolean[];
  let sender: TypingSender;
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    sender = new TypingSender((t) => sent.push(t), {
      now: () => Date.now(),
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    });
  });
  afterEach(() => vi.useRealTimers());

  it('starts on the first non-empty input only', () => {
    sender.input('');
    sender.input('   ');
    expect(sent).toEqual([]);
    sender.input('h');
    sender.input('hi');
    expect(sent).toEqual([true]);
    expect(sender.isTyping).toBe(true);
  });
  it('stops after typingStopMs (2 s) without typing, not before', () => {
    sender.input('h');
    vi.advanceTimersByTime(LIMITS.typingStopMs - 1);
    sender.input('he'); // typing again resets the pause
    vi.advanceTimersByTime(LIMITS.typingStopMs - 1);
    expect(sent).toEqual([true]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([true, false]);
    expect(sender.isTyping).toBe(false);
  });
  it('re-sends typing-start every typingRefreshMs while typing', () => {
    sender.input('a');
    for (let t = 0; t < LIMITS.typingRefreshMs * 2; t += 500) {
      vi.advanceTimersByTime(500);
      sender.input(`a${t}`);
    }
    expect(sent).toEqual([true, true, true]);
  });
  it('stops when the input is emptied and on send (stop), once', () => {
    sender.input('abc');
    sender.input('');
    expect(sent).toEqual([true, false]);
    sender.input('x');
    sender.stop();
    sender.stop();
    vi.advanceTimersByTime(LIMITS.typingStopMs * 2);
    expect(sent).toEqual([true, false, true, false]);
  });
  it('starts again after a stop', () => {
    sender.input('a');
    vi.advanceTimersByTime(LIMITS.typingStopMs);
    sender.input('ab');
    expect(sent).toEqual([true, false, true]);
  });
});
