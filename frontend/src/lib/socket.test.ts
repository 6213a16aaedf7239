import { describe, expect, it } from 'vitest';
import { ConnectErrorCounter } from './socket.ts';

describe('ConnectErrorCounter: manual retry after 5 consecutive connect errors', () => {
  it('fires on the 5th consecutive error and starts over', () => {
    const c = new ConnectErrorCounter();
    expect([c.record(), c.record(), c.record(), c.record()]).toEqual([false, false, false, false]);
    expect(c.record()).toBe(true);
    expect(c.value).toBe(0);
  });
  it('a successful connect resets the count', () => {
    const c = new ConnectErrorCounter(5);
    c.record();
    c.record();
    c.record();
    c.record();
    c.reset();
    expect(c.record()).toBe(false);
  });
});
