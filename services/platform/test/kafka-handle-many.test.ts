import { afterAll, describe, expect, it } from 'vitest';
import { kafkaBrokers } from '../../../test/helpers/infra.ts';
import { randomUUID } from 'node:crypto';
import { TOPICS } from '@ephemera/proto';
import { KafkaEventLog } from '../src/event-log/kafka.ts';
import { NamespacedEventLog } from '../src/event-log/namespaced.ts';
import type { Delivery } from '../src/event-log/port.ts';
import { roomRecord as record } from './log-records.ts';

const run = randomUUID().slice(0, 8);
const logs: KafkaEventLog[] = [];
afterAll(async () => {
  await Promise.all(logs.map((l) => l.close()));
});

describe('Kafka log: handleMany (records fetched together are handled together)', () => {
  it('hands consecutive records over in order, several at once, and retries a failed group whole', async () => {
    const kafka = new KafkaEventLog({ brokers: kafkaBrokers(), clientId: 'handle-many-test', partitions: 2 });
    logs.push(kafka);
    const log = new NamespacedEventLog(kafka, `many${run}`); // topics of its own: only this test's records
    await log.init([TOPICS.room]);
    const keys = [1, 2, 3].map((k) => `ws-${run}-${k}`);
    for (const key of keys) await log.append(Array.from({ length: 20 }, (_, i) => record(key, i + 1)));

    const calls: Delivery[][] = [];
    let failOnce = true;
    const sub = await log.subscribe({
      groupId: 'many',
      topics: [TOPICS.room],
      fromBeginning: true,
      handler: async () => {
        throw new Error('handler must not be called when handleMany is given');
      },
      handleMany: async (deliveries) => {
        if (failOnce) {
          failOnce = false;
          throw new Error('transient failure of a whole group');
        }
        calls.push(deliveries);
      },
    });
    await sub.caughtUp();
    await sub.stop();

    const handled = calls.flat();
    expect(handled.every((d) => d.topic === TOPICS.room)).toBe(true); // the namespace is taken off, as for handler
    for (const key of keys) {
      // each record once, in order: the failed group was handed over again whole, nothing skipped or repeated
      expect(handled.filter((d) => d.key === key).map((d) => d.event.sequence)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
    }
    expect(Math.max(...calls.map((c) => c.length))).toBeGreaterThan(1);
    // one call never mixes partitions (key order holds within it)
    for (const c of calls) expect(new Set(c.map((d) => d.position.split('@')[0])).size).toBe(1);
  }, 60_000);
});
