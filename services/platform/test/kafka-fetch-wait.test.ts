/**
 * The consumers' long fetch wait (kafka.ts) and its one exception (kafkajs-idle-fix.ts): an idle consumer asks the
 * broker once per wait, a message still arrives at once, and a new assignment's first fetch does not wait the long
 * wait first (kafkajs sleeps maxWait while no assigned partition has a resolved offset).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { kafkaBrokers } from '../../../test/helpers/infra.ts';
import { Kafka, logLevel } from 'kafkajs';
import '../src/event-log/kafkajs-idle-fix.ts';

const WAIT_MS = 3_000;
const kafka = new Kafka({ clientId: 'fetch-wait-test', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING });
const topic = `fetch-wait-${randomUUID().slice(0, 8)}`;
const admin = kafka.admin();
const producer = kafka.producer();
const consumer = kafka.consumer({
  groupId: `fetch-wait-${randomUUID().slice(0, 8)}`,
  maxWaitTimeInMs: WAIT_MS,
  heartbeatInterval: 3_000,
  sessionTimeout: 10_000,
});
afterAll(async () => {
  await consumer.disconnect().catch(() => {});
  await producer.disconnect().catch(() => {});
  await admin.disconnect().catch(() => {});
});

describe("the consumers' fetch wait", () => {
  it('first fetch soon after joining; idle fetches once per wait; a message still arrives at once', async () => {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 2, replicationFactor: 1 }], waitForLeaders: true });
    await producer.connect();
    let joinedAt = 0;
    const fetches: number[] = [];
    const received: { at: number; sentAt: number }[] = [];
    consumer.on(consumer.events.GROUP_JOIN, () => {
      joinedAt = Date.now();
    });
    consumer.on(consumer.events.FETCH, () => {
      fetches.push(Date.now());
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        received.push({ at: Date.now(), sentAt: Number(message.value!.toString()) });
      },
    });
    const until = async (ok: () => boolean, ms: number) => {
      const end = Date.now() + ms;
      while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    };
    await until(() => fetches.length > 0, 15_000);
    expect(joinedAt).toBeGreaterThan(0);
    // Without the fix the first fetch comes a whole wait (3 s) after the join.
    expect(fetches[0]! - joinedAt).toBeLessThan(1_500);

    // Idle: the broker holds each fetch for the wait, so about one every 3 s (with 500 ms: a dozen in 6 s).
    const idleFrom = fetches.length;
    await new Promise((r) => setTimeout(r, 6_500));
    const idleFetches = fetches.length - idleFrom;
    expect(idleFetches).toBeGreaterThanOrEqual(1);
    expect(idleFetches).toBeLessThanOrEqual(4);

    // The wait adds no latency: the broker answers a held fetch as soon as a message arrives.
    await producer.send({ topic, messages: [{ value: String(Date.now()) }] });
    await until(() => received.length > 0, 5_000);
    expect(received).toHaveLength(1);
    expect(received[0]!.at - received[0]!.sentAt).toBeLessThan(1_000);
  }, 40_000);
});
