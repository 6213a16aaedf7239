import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PresenceTracker, TYPING_GUARD_MS } from './presence.ts';

describe('automatic presence', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('away when the tab is hidden or the window loses focus, online on focus; each change sent once', () => {
    const sent: string[] = [];
    const t = new PresenceTracker((s) => sent.push(s));
    t.attention(false);
    t.attention(false);
    t.attention(true);
    expect(sent).toEqual(['away', 'online']);
  });

  it('suppressed while typing in a text field; typing ends 500 ms after focus leaves it', () => {
    const sent: string[] = [];
    const t = new PresenceTracker((s) => sent.push(s));
    t.fieldFocused();
    t.attention(false);
    expect(sent).toEqual([]);
    t.fieldBlurred();
    vi.advanceTimersByTime(TYPING_GUARD_MS - 1);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['away']);
  });

  it('focus back in a field before the guard ends keeps it suppressed; a change undone meanwhile sends nothing', () => {
    const sent: string[] = [];
    const t = new PresenceTracker((s) => sent.push(s));
    t.fieldFocused();
    t.fieldBlurred();
    t.attention(false);
    vi.advanceTimersByTime(200);
    t.fieldFocused();
    t.attention(true);
    vi.advanceTimersByTime(1000);
    t.fieldBlurred();
    vi.advanceTimersByTime(TYPING_GUARD_MS);
    expect(sent).toEqual([]);
    expect(TYPING_GUARD_MS).toBe(500);
  });

  it('a chosen Busy goes out at once (even inside the typing guard) and holds while the tab is hidden; Online hands back to the tab', () => {
    const sent: string[] = [];
    const t = new PresenceTracker((s) => sent.push(s));
    t.fieldFocused();
    t.fieldBlurred();
    t.choose('busy');
    expect(sent).toEqual(['busy']);
    vi.advanceTimersByTime(TYPING_GUARD_MS);
    t.attention(false);
    t.attention(true);
    t.choose('busy');
    t.attention(false);
    expect(sent).toEqual(['busy']);
    t.choose('online'); // back to Online: the tab decides again (hidden: away)
    expect(sent).toEqual(['busy', 'away']);
    t.attention(true);
    expect(sent).toEqual(['busy', 'away', 'online']);
  });
});
