/**
 * A subscription whose consumer crashes with an error kafkajs does not restart (consumer-restarter.ts) runs again
 * by itself. The crash is a real one: a "squatter" member holds the group with a partition-assignment protocol the
 * subscription does not speak, so the broker refuses its join with INCONSISTENT_GROUP_PROTOCOL, a non-retriable
 * error, as a broker outage refuses a rejoin with "Failed to find group coordinator". Without the restarter the
 * subscription never handles another record.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { kafkaBrokers } from '../../../test/helpers/infra.ts';
import { randomUUID } from 'node:crypto';
import { Kafka, PartitionAssigners, logLevel, type Consumer, type PartitionAssigner } from 'kafkajs';
import { TOPICS } from '@ephemera/proto';
import { KafkaEventLog } from '../src/event-log/kafka.ts';
import { NamespacedEventLog } from '../src/event-log/namespaced.ts';
import { roomRecord as record } from './log-records.ts';

const run = randomUUID().slice(0, 8);
const brokers = () => kafkaBrokers();
const logs: KafkaEventLog[] = [];
const squatters: Consumer[] = [];
afterAll(async () => {
  await Promise.all(squatters.map((s) => s.disconnect().catch(() => {})));
  await Promise.all(logs.map((l) => l.close()));
});

/** kafkajs' round-robin assigner under another protocol name. */
const otherProtocol: PartitionAssigner = (config) => {
  const inner = PartitionAssigners.roundRobin(config);
  return {
    ...inner,
    name: 'SquatterAssigner',
    protocol: (subscription) => ({ ...inner.protocol(subscription), name: 'SquatterAssigner' }),
  };
};

async function squat(groupId: string, topic: string): Promise<Consumer> {
  const squatter = new Kafka({ brokers: brokers(), clientId: 'squatter', logLevel: logLevel.NOTHING }).consumer({
    groupId,
    partitionAssigners: [otherProtocol],
    sessionTimeout: 6_000,
  });
  squatters.push(squatter);
  await squatter.connect();
  await squatter.subscribe({ topics: [topic] });
  await squatter.run({ eachMessage: async () => {} }); // resolves once it has joined the group
  return squatter;
}

async function setUp(name: string) {
  const kafka = new KafkaEventLog({ brokers: brokers(), clientId: 'restart-test', partitions: 1 });
  logs.push(kafka);
  const namespace = `restart${name}${run}`;
  const log = new NamespacedEventLog(kafka, namespace); // a topic and group of its own
  await log.init([TOPICS.room, TOPICS.admin]);
  // Another topic: the squatter must not handle (and commit) the subscription's records while it holds the group.
  const squatter = await squat(`${namespace}.projection`, `${namespace}.${TOPICS.admin}`);
  return { log, squatter };
}

describe('Kafka log: a consumer crash kafkajs gives up on', () => {
  it('starts the consumer again, and it resumes where the subscription began: nothing skipped, nothing twice', async () => {
    const { log, squatter } = await setUp('resume');
    const key = `ws-${run}`;
    const handled: number[] = [];
    // fromBeginning false: records appended after subscribe() resolved are this group's. The consumer's first
    // start crashes, so where it resumes is the restarter's seek, not kafkajs' "latest" at its first fetch.
    const sub = await log.subscribe({
      groupId: 'projection',
      topics: [TOPICS.room],
      fromBeginning: false,
      handler: async (d) => {
        handled.push(d.event.sequence);
      },
    });
    await log.append([record(key, 1)]); // while the consumer is down
    await new Promise((r) => setTimeout(r, 1_000));
    expect(handled).toEqual([]); // the squatter still holds the group
    await squatter.disconnect();
    await log.append([record(key, 2)]);

    const deadline = Date.now() + 20_000;
    while (handled.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await log.append([record(key, 3)]);
    // Committed positions reach the end: the consumer is running and committing again (a dead one never does).
    const caughtUp = await Promise.race([
      sub.caughtUp().then(
        () => true,
        () => false,
      ),
      new Promise((r) => setTimeout(r, 15_000, false)),
    ]);
    await sub.stop();
    expect(caughtUp).toBe(true);
    expect(handled).toEqual([1, 2, 3]);
  }, 60_000);

  it('stops at once while the consumer is still being started again', async () => {
    const { log } = await setUp('stop');
    const sub = await log.subscribe({
      groupId: 'projection',
      topics: [TOPICS.room],
      fromBeginning: true,
      handler: async () => {},
    });
    await new Promise((r) => setTimeout(r, 1_500)); // a few restart attempts, each refused
    const startedAt = Date.now();
    await sub.stop();
    expect(Date.now() - startedAt).toBeLessThan(5_000);
  }, 30_000);
});
