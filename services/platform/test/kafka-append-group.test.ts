/**
 * Group commit on Kafka (KafkaEventLog.append): appends made while one is in flight go together in the next produce
 * request, each caller answered once its request is. 200 rooms appending at once cost a few requests instead of 200,
 * every record arrives once and each room's in the order appended; a group stops short of the size the broker
 * accepts. Without the grouping every append is a request of its own and this test fails.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { kafkaBrokers } from '../../../test/helpers/infra.ts';
import { randomUUID } from 'node:crypto';
import { TOPICS } from '@ephemera/proto';
import type { Producer } from 'kafkajs';
import { KafkaEventLog } from '../src/event-log/kafka.ts';
import { NamespacedEventLog } from '../src/event-log/namespaced.ts';
import { roomRecord as record } from './log-records.ts';

const run = randomUUID().slice(0, 8);
const logs: KafkaEventLog[] = [];
afterAll(async () => {
  await Promise.all(logs.map((l) => l.close()));
});

/** A log on a topic of its own, and the records of each produce request its producer sends. */
async function countedLog(name: string) {
  const kafka = new KafkaEventLog({ brokers: kafkaBrokers(), clientId: `append-group-${name}`, partitions: 2 });
  logs.push(kafka);
  const log = new NamespacedEventLog(kafka, `${name}${run}`);
  await log.init([TOPICS.room]);
  const producer = await (kafka as unknown as { getProducer(): Promise<Producer> }).getProducer();
  const requests: number[] = [];
  const sendBatch = producer.sendBatch.bind(producer);
  /** a request holding a record of this room fails (as a broker's refusal would) */
  const failing = { room: '' };
  producer.sendBatch = (batch) => {
    requests.push(batch.topicMessages!.reduce((n, t) => n + t.messages.length, 0));
    const keys = batch.topicMessages!.flatMap((t) => t.messages.map((m) => String(m.key)));
    return keys.includes(failing.room) ? Promise.reject(new Error('broker said no')) : sendBatch(batch);
  };
  return { log, requests, failing };
}

describe('Kafka log: appends made together', () => {
  it('go in a few requests, every record once, each room in order', async () => {
    const { log, requests } = await countedLog('group');
    const ROOMS = 20;
    const PER_ROOM = 10;
    // each room appends its records one after the other (a room's single writer); the rooms all at once
    await Promise.all(
      Array.from({ length: ROOMS }, async (_, room) => {
        for (let seq = 1; seq <= PER_ROOM; seq++) await log.append([record(`room-${room}`, seq)]);
      }),
    );
    expect(requests.reduce((a, b) => a + b, 0)).toBe(ROOMS * PER_ROOM);
    expect(requests.length).toBeLessThanOrEqual(PER_ROOM * 2 + 1); // one per round of the rooms, about; 200 without
    expect(Math.max(...requests)).toBeGreaterThan(1);

    const seen = new Map<string, number[]>();
    const sub = await log.subscribe({
      groupId: 'reader',
      topics: [TOPICS.room],
      fromBeginning: true,
      handler: async ({ key, event }) => {
        seen.set(key, [...(seen.get(key) ?? []), event.sequence]);
      },
    });
    await sub.caughtUp();
    await sub.stop();
    expect(seen.size).toBe(ROOMS);
    for (const sequences of seen.values()) expect(sequences).toEqual(Array.from({ length: PER_ROOM }, (_, i) => i + 1));
  }, 60_000);

  it("stop a group short of the broker's size limit", async () => {
    const { log, requests } = await countedLog('sized');
    const big = (key: string) => {
      const r = record(key, 1);
      return { ...r, event: { ...r.event, payload: { ...r.event.payload, name: 'x'.repeat(200 * 1024) } } } as typeof r;
    };
    // the first goes alone; the next four (800 KB) wait for it and go in two requests of at most 512 KB
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((k) => log.append([big(k)])));
    expect(requests).toEqual([1, 2, 2]);
  }, 60_000);

  it('answer every append of a failed request with its error, and the next appends go on', async () => {
    const { log, requests, failing } = await countedLog('failed');
    failing.room = 'b';
    const first = log.append([record('a', 1)]); // alone, in flight while the next two wait: then b and c together
    const [b, c] = [log.append([record('b', 1)]), log.append([record('c', 1)])];
    await expect(first).resolves.toBeUndefined();
    await expect(b).rejects.toThrow('broker said no');
    await expect(c).rejects.toThrow('broker said no'); // c's record was in b's request
    await expect(log.append([record('d', 1)])).resolves.toBeUndefined(); // on a fresh producer
    expect(requests).toEqual([1, 2]); // d went on the new producer (not counted)
  }, 60_000);
});
