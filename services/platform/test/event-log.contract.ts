/**
 * The behaviour every EventLog adapter must show (see ../src/event-log/port.ts). Each adapter's test file calls
 * eventLogContract() with a factory; the tests share one server, so they never assume an empty topic: each test
 * uses its own keys (aggregate ids) and group ids and looks only at deliveries for its keys.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { TOPICS, type Topic } from '@ephemera/proto';
import type { Delivery, EventLog, LogRecord, SubscribeOptions } from '../src/event-log/port.ts';
import { roomRecord as record } from './log-records.ts';

/**
 * makeLog: a log over the suite's shared storage, initialised for every topic in TOPICS.
 * restart (optional): close that log and return a new instance over the same storage, as after a process restart.
 */
export type MakeLog = () => Promise<{ log: EventLog; restart?: () => Promise<EventLog> }>;

/** An adapter whose restart is "close this instance, connect a new one", as a restarted process would. */
export function restartable(connect: () => Promise<EventLog>): MakeLog {
  return async () => {
    const log = await connect();
    return {
      log,
      restart: async () => {
        await log.close();
        return connect();
      },
    };
  };
}

export function eventLogContract(name: string, makeLog: MakeLog): void {
  describe(`EventLog contract: ${name}`, () => {
    const cleanups: (() => Promise<unknown>)[] = [];
    afterEach(async () => {
      // Last opened, first closed: subscriptions before the logs they belong to.
      while (cleanups.length) await cleanups.pop()!().catch(() => {});
    });

    async function open() {
      const made = await makeLog();
      cleanups.push(() => made.log.close());
      const restart = async () => {
        if (!made.restart) return made.log;
        const log = await made.restart();
        cleanups.push(() => log.close());
        return log;
      };
      return { log: made.log, restart };
    }

    /** Subscribe, keeping only deliveries for `keys` (other tests share the topics). */
    async function watch(
      log: EventLog,
      opts: Omit<SubscribeOptions, 'handler' | 'topics'> & { topics?: Topic[] },
      keys: string[],
      handler?: (d: Delivery) => Promise<void>,
    ) {
      const wanted = new Set(keys);
      const seen: Delivery[] = [];
      const sub = await log.subscribe({
        topics: [TOPICS.room],
        ...opts,
        handler: async (d) => {
          if (!wanted.has(d.key)) return;
          await handler?.(d);
          seen.push(d);
        },
      });
      let stopped = false;
      const stop = async () => {
        if (stopped) return;
        stopped = true;
        await sub.stop();
      };
      cleanups.push(stop);
      return { seen, stop, caughtUp: () => sub.caughtUp() };
    }

    it('keeps per-key order across many interleaved keys and concurrent appends', async () => {
      const { log } = await open();
      const keys = ids('order', 8);
      const perKey = 24;
      const { seen } = await watch(log, { groupId: group('order'), fromBeginning: true }, keys);

      // First 16 per key: every key appends on its own in sequence, all keys at once, in batches of 1 to 3.
      await Promise.all(
        keys.map(async (key, k) => {
          let seq = 1;
          while (seq <= 16) {
            const size = Math.min(1 + ((seq + k) % 3), 17 - seq);
            await log.append(range(seq, seq + size - 1).map((s) => record(key, s)));
            seq += size;
          }
        }),
      );
      // The rest in multi-key batches whose records interleave the keys.
      for (let s = 17; s <= perKey; s += 4) {
        await log.append(range(s, s + 3).flatMap((seq) => keys.map((key) => record(key, seq))));
      }

      await waitFor(() => distinctIds(seen) === keys.length * perKey, 'every record delivered');
      for (const key of keys) {
        const forKey = seen.filter((d) => d.key === key);
        expect(firstOccurrences(forKey.map((d) => d.event.sequence))).toEqual(range(1, perKey));
        expectAtLeastOnceOrder(forKey.map((d) => d.event.sequence));
        for (const d of forKey) {
          expect(d.topic).toBe(TOPICS.room);
          expect(d.event.aggregateId).toBe(key);
          expect(d.position).toEqual(expect.any(String));
        }
      }
    });

    it('append resolves once durable: a new group reading from the beginning sees every record, intact', async () => {
      const { log, restart } = await open();
      const [roomKey, msgKey] = ids('durable', 2);
      const appended: LogRecord[] = [];
      for (let seq = 1; seq <= 10; seq++) {
        const batch = [
          record(roomKey, seq, { traceparent: `00-${'a'.repeat(31)}${seq % 10}-${'b'.repeat(16)}-01` }),
          { ...record(msgKey, seq), topic: TOPICS.messaging },
        ];
        await log.append(batch);
        appended.push(...batch);
      }
      // Read through a fresh instance where the adapter can restart: nothing may live only in the writer's memory.
      const reader = await restart();
      const topics = [TOPICS.room, TOPICS.messaging];
      const a = await watch(reader, { groupId: group('durable-a'), fromBeginning: true, topics }, [roomKey, msgKey]);
      const b = await watch(reader, { groupId: group('durable-b'), fromBeginning: true, topics }, [roomKey, msgKey]);
      await waitFor(() => distinctIds(a.seen) === 20 && distinctIds(b.seen) === 20, 'both groups saw all 20 records');

      for (const seen of [a.seen, b.seen]) {
        for (const r of appended) {
          const d = seen.find((x) => x.event.id === r.event.id)!;
          expect(d).toBeDefined();
          expect(d.topic).toBe(r.topic);
          expect(d.key).toBe(r.key);
          expect(d.event).toEqual(r.event);
          for (const [h, v] of Object.entries(r.headers ?? {})) expect(d.headers?.[h]).toBe(v);
        }
      }
    });

    it('delivers at least once: a failed handler gets the record again; an idempotent consumer applies each event once', async () => {
      const { log } = await open();
      const [key] = ids('retry', 1);
      const attempts = new Map<number, number>();
      const applied = new Set<string>();
      const appliedSeqs: number[] = [];
      const deliveriesOf = new Map<string, number>();

      const consumer = async (d: Delivery) => {
        const seq = d.event.sequence;
        const attempt = (attempts.get(seq) ?? 0) + 1;
        attempts.set(seq, attempt);
        deliveriesOf.set(d.event.id, (deliveriesOf.get(d.event.id) ?? 0) + 1);
        if (seq === 3 && attempt === 1) throw new Error('transient failure before applying');
        if (!applied.has(d.event.id)) {
          applied.add(d.event.id);
          appliedSeqs.push(seq);
        }
        if (seq === 7 && attempt === 1) throw new Error('failure after applying (the ack is lost)');
      };
      await watch(log, { groupId: group('retry'), fromBeginning: true }, [key], consumer);

      const records = range(1, 10).map((s) => record(key, s));
      for (const r of records.slice(0, 5)) await log.append([r]);
      await log.append([records[4]]); // a producer retry: the same event (same id) appended twice
      for (const r of records.slice(5)) await log.append([r]);

      await waitFor(() => appliedSeqs.length === 10 && (attempts.get(10) ?? 0) >= 1, 'all ten applied');
      expect(appliedSeqs).toEqual(range(1, 10));
      expect(attempts.get(3)).toBeGreaterThanOrEqual(2);
      expect(attempts.get(7)).toBeGreaterThanOrEqual(2);
      expect(deliveriesOf.get(records[4].event.id)).toBeGreaterThanOrEqual(2); // both copies reached the consumer
    });

    it('a group resumes after its committed position when it subscribes again', async () => {
      const { log, restart } = await open();
      const [key] = ids('resume', 1);
      const groupId = group('resume');
      for (let s = 1; s <= 5; s++) await log.append([record(key, s)]);

      const first = await watch(log, { groupId, fromBeginning: true }, [key]);
      await waitFor(() => distinctIds(first.seen) === 5, 'first run saw 1..5');
      await first.stop();

      for (let s = 6; s <= 10; s++) await log.append([record(key, s)]);
      const again = await restart();
      // fromBeginning only applies to a group without a position: this group has one.
      const second = await watch(again, { groupId, fromBeginning: true }, [key]);
      await waitFor(() => distinctIds(second.seen) === 5, 'second run saw 6..10');

      expect(firstOccurrences(first.seen.map((d) => d.event.sequence))).toEqual(range(1, 5));
      // A clean stop commits what its handlers finished, so nothing from the first run comes back.
      expect(second.seen.map((d) => d.event.sequence)).toEqual(range(6, 10));
    });

    it('replay: a fresh group from the beginning rebuilds a read model identical to the live one', async () => {
      const { log } = await open();
      const keys = ids('replay', 4);
      const project = () => {
        const model = new Map<string, { count: number; sequences: number[]; lastEventId: string }>();
        const applied = new Set<string>();
        const handler = async (d: Delivery) => {
          if (applied.has(d.event.id)) return; // idempotent projection
          applied.add(d.event.id);
          const row = model.get(d.key) ?? { count: 0, sequences: [], lastEventId: '' };
          model.set(d.key, {
            count: row.count + 1,
            sequences: [...row.sequences, d.event.sequence],
            lastEventId: d.event.id,
          });
        };
        return { model, handler, total: () => applied.size };
      };

      const live = project();
      await watch(log, { groupId: group('replay-live'), fromBeginning: false }, keys, live.handler);
      for (let s = 1; s <= 10; s++) {
        const batch = keys.map((k) => record(k, s));
        await log.append(batch);
        if (s === 4) await log.append([batch[0]]); // a duplicate the projection must absorb
      }
      await waitFor(() => live.total() === 40, 'live model complete');

      const rebuilt = project();
      await watch(log, { groupId: group('replay-rebuild'), fromBeginning: true }, keys, rebuilt.handler);
      await waitFor(() => rebuilt.total() === 40, 'rebuilt model complete');

      for (const k of keys) expect(live.model.get(k)?.sequences).toEqual(range(1, 10));
      expect(Object.fromEntries(rebuilt.model)).toEqual(Object.fromEntries(live.model));
    });

    it('caughtUp() resolves once every record already in the log has been handled', async () => {
      const { log } = await open();
      const [key] = ids('caught-up', 1);
      for (let s = 1; s <= 20; s += 5) await log.append(range(s, s + 4).map((seq) => record(key, seq)));

      // A slow handler: caughtUp must wait for it, not merely for the records to be fetched.
      const slow = await watch(log, { groupId: group('caught-up'), fromBeginning: true }, [key], () => sleep(10));
      await slow.caughtUp();
      expect(firstOccurrences(slow.seen.map((d) => d.event.sequence))).toEqual(range(1, 20));

      // A group that starts at the end has nothing to catch up on.
      const tail = await watch(log, { groupId: group('caught-up-tail'), fromBeginning: false }, [key]);
      await tail.caughtUp();
      expect(tail.seen).toEqual([]);
    });

    it('fromBeginning: false sees only records appended after subscribe resolved', async () => {
      const { log } = await open();
      const [key] = ids('tail', 1);
      for (let s = 1; s <= 3; s++) await log.append([record(key, s)]);

      const { seen } = await watch(log, { groupId: group('tail'), fromBeginning: false }, [key]);
      for (let s = 4; s <= 6; s++) await log.append([record(key, s)]); // right away: no settling time allowed

      await waitFor(() => distinctIds(seen) >= 3, 'records 4..6 delivered');
      // Same key, same partition/order: an earlier record would have arrived before these.
      expect(firstOccurrences(seen.map((d) => d.event.sequence))).toEqual([4, 5, 6]);
    });
  });
}

// ---------------------------------------------------------------- helpers

const run = randomUUID().slice(0, 8);
const ids = (label: string, n: number) => range(1, n).map((i) => `ws-${run}-${label}-${i}`);
const group = (label: string) => `contract-${run}-${label}`;

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

function distinctIds(seen: Delivery[]): number {
  return new Set(seen.map((d) => d.event.id)).size;
}

function firstOccurrences(values: number[]): number[] {
  return [...new Set(values)];
}

/** Order as at-least-once allows it: each record follows its predecessor, or delivery restarts from an earlier one. */
function expectAtLeastOnceOrder(sequences: number[]): void {
  sequences.forEach((s, i) => {
    if (i === 0) expect(s).toBe(1);
    else if (s > sequences[i - 1]) expect(s).toBe(sequences[i - 1] + 1);
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await sleep(10);
  }
}
