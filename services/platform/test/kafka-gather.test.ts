/**
 * SubscribeOptions.gather on Kafka: a trickle of records (one every 20 ms, as chat sends arrive) reaches a gathering
 * consumer in a few fetches of many records, and a normal consumer at once, about one fetch per record. Both get
 * every record once, in order. Without the option's fetch setting (minBytes) the gathering consumer fetches as
 * often as the other and this test fails.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { kafkaBrokers } from '../../../test/helpers/infra.ts';
import { randomUUID } from 'node:crypto';
import { TOPICS } from '@ephemera/proto';
import { KafkaEventLog } from '../src/event-log/kafka.ts';
import { NamespacedEventLog } from '../src/event-log/namespaced.ts';
import type { Delivery, Subscription } from '../src/event-log/port.ts';
import { roomRecord as record } from './log-records.ts';

const run = randomUUID().slice(0, 8);
const logs: KafkaEventLog[] = [];
afterAll(async () => {
  await Promise.all(logs.map((l) => l.close()));
});

describe('Kafka log: gathering consumers', () => {
  it('hands a trickle of records to a gathering consumer in a few batches, and to a normal one as they come', async () => {
    const kafka = new KafkaEventLog({ brokers: kafkaBrokers(), clientId: 'gather-test', partitions: 1 });
    logs.push(kafka);
    const log = new NamespacedEventLog(kafka, `gather${run}`); // a topic of its own: only this test's records
    await log.init([TOPICS.room]);
    const key = `ws-${run}`;
    const COUNT = 40;

    const batches = { gathering: [] as Delivery[][], normal: [] as Delivery[][] };
    const subscribe = (name: keyof typeof batches, gather: boolean): Promise<Subscription> =>
      log.subscribe({
        groupId: name,
        topics: [TOPICS.room],
        fromBeginning: true,
        gather,
        handler: async (d) => {
          batches[name].push([d]);
        },
        handleMany: async (deliveries) => {
          batches[name].push(deliveries);
        },
      });
    const subs = [await subscribe('gathering', true), await subscribe('normal', false)];
    await Promise.all(subs.map((s) => s.caughtUp())); // both are fetching (an empty topic)

    const sentAt = Date.now();
    for (let i = 1; i <= COUNT; i++) {
      await log.append([record(key, i)]);
      await new Promise((r) => setTimeout(r, 20));
    }
    const all = (name: keyof typeof batches) => batches[name].flat().map((d) => d.event.sequence);
    const deadline = Date.now() + 15_000;
    while ((all('gathering').length < COUNT || all('normal').length < COUNT) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const waited = Date.now() - sentAt;
    await Promise.all(subs.map((s) => s.stop()));

    const inOrder = Array.from({ length: COUNT }, (_, i) => i + 1);
    expect(all('gathering')).toEqual(inOrder);
    expect(all('normal')).toEqual(inOrder);
    expect(batches.normal.length).toBeGreaterThan(COUNT / 2); // about one fetch per record
    expect(batches.gathering.length).toBeLessThanOrEqual(4); // the trickle came in a few fetches
    expect(waited).toBeLessThan(COUNT * 20 + 2_000 + 3_000); // late by at most about a fetch wait
  }, 60_000);
});
