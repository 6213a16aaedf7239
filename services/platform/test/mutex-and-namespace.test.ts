import { describe, it, expect } from 'vitest';
import { TOPICS } from '@ephemera/proto';
import { KeyedMutex } from '../src/mutex.ts';
import { NamespacedEventLog } from '../src/event-log/namespaced.ts';
import type { EventLog, LogRecord, SubscribeOptions } from '../src/event-log/port.ts';

describe('KeyedMutex', () => {
  it('runs work for one key one at a time, in call order, and other keys in parallel; a failure does not block the queue', async () => {
    const mutex = new KeyedMutex();
    const trace: string[] = [];
    const step = (key: string, id: string, ms: number, fail = false) =>
      mutex.run(key, async () => {
        trace.push(`start ${id}`);
        await new Promise((r) => setTimeout(r, ms));
        trace.push(`end ${id}`);
        if (fail) throw new Error(id);
        return id;
      });
    const results = await Promise.allSettled([step('a', 'a1', 30, true), step('a', 'a2', 5), step('b', 'b1', 10)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(trace.indexOf('end a1')).toBeLessThan(trace.indexOf('start a2'));
    expect(trace.indexOf('start b1')).toBeLessThan(trace.indexOf('end a1'));
  });
});

describe('NamespacedEventLog', () => {
  it('prefixes topics and groups outward and hides the prefix from handlers', async () => {
    const appended: LogRecord[] = [];
    let subscribed: SubscribeOptions | null = null;
    const inner: EventLog = {
      init: async () => {},
      close: async () => {},
      append: async (records) => {
        appended.push(...records);
      },
      subscribe: async (o) => {
        subscribed = o;
        return { stop: async () => {}, caughtUp: async () => {} };
      },
    };
    const log = new NamespacedEventLog(inner, 'ns1');
    await log.append([{ topic: TOPICS.room, key: 'w', event: {} as never }]);
    expect(appended[0]!.topic).toBe(`ns1.${TOPICS.room}`);
    const seen: string[] = [];
    await log.subscribe({
      groupId: 'g',
      topics: [TOPICS.room],
      fromBeginning: true,
      handler: async (d) => {
        seen.push(d.topic);
      },
    });
    expect(subscribed!.groupId).toBe('ns1.g');
    expect(subscribed!.topics).toEqual([`ns1.${TOPICS.room}`]);
    await subscribed!.handler({ topic: `ns1.${TOPICS.room}` as never, key: 'w', event: {} as never, position: '1' });
    expect(seen).toEqual([TOPICS.room]);
    expect(() => new NamespacedEventLog(inner, 'bad name')).toThrow();
  });
});
