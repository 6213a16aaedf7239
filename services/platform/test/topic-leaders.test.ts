/** waitForLeaders (topic-offsets.ts): the wait KafkaEventLog.init falls back on when kafkajs' own gives up too early. */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { kafkaBrokers } from '../../../test/helpers/infra.ts';
import { Kafka, logLevel } from 'kafkajs';
import { waitForLeaders } from '../src/event-log/topic-offsets.ts';

const admin = new Kafka({ clientId: 'leaders-test', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
afterAll(async () => {
  await admin.disconnect().catch(() => {});
});

describe('waitForLeaders', () => {
  it('returns once a topic created without waiting has its leaders; gives up on a topic that never comes', async () => {
    await admin.connect();
    const topic = `leaders-${randomUUID().slice(0, 8)}`;
    await admin.createTopics({ topics: [{ topic, numPartitions: 3, replicationFactor: 1 }], waitForLeaders: false });
    await waitForLeaders(admin, [topic]);
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    expect(topics[0]!.partitions.every((p) => p.leader >= 0)).toBe(true);
    await expect(waitForLeaders(admin, [`never-${randomUUID().slice(0, 8)}`], 3)).rejects.toThrow();
  }, 30_000);
});
