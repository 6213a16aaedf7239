/**
 * A topic's end offsets, asked again while the answer is a retriable Kafka error. Right after a topic is created
 * (createTopics waits for leaders, but another process's metadata can still name no or an old leader) the broker
 * answers NOT_LEADER_FOR_PARTITION / LEADER_NOT_AVAILABLE for a moment; kafkajs' admin passes that on. A start-up
 * that read offsets then failed (a CI run: "This server is not the leader for that topic-partition").
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Admin, Kafka } from 'kafkajs';

type Ends = Awaited<ReturnType<Admin['fetchTopicOffsets']>>;

export async function fetchTopicEnds(admin: Admin, topic: string, attempts = 10): Promise<Ends> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await admin.fetchTopicOffsets(topic);
    } catch (err) {
      if (!(err as { retriable?: boolean }).retriable || attempt >= attempts) throw err;
      await admin.fetchTopicMetadata({ topics: [topic] }).catch(() => undefined); // learn the new leader
      await sleep(100 * attempt);
    }
  }
}

/** The key of one topic-partition in the maps of positions (handled, committed, ends): `topic/partition`. */
export const partitionId = (topic: string, partition: number): string => `${topic}/${partition}`;

/** partitionId's parts again (a topic name may hold '/'; a partition number cannot). */
export function fromPartitionId(id: string): { topic: string; partition: number } {
  const slash = id.lastIndexOf('/');
  return { topic: id.slice(0, slash), partition: Number(id.slice(slash + 1)) };
}

/**
 * Waits until every partition of `topics` has a leader. kafkajs' createTopics({ waitForLeaders }) retries only
 * LEADER_NOT_AVAILABLE; right after the creation the broker can also answer UNKNOWN_TOPIC_OR_PARTITION (retriable) for
 * a moment, and kafkajs passes that on (a CI run: "This server does not host this topic-partition").
 */
export async function waitForLeaders(admin: Admin, topics: string[], attempts = 20): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { topics: found } = await admin.fetchTopicMetadata({ topics });
      if (
        found.length === topics.length &&
        found.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))
      )
        return;
      if (attempt >= attempts) throw new Error(`topics without leaders after ${attempts} tries: ${topics.join(', ')}`);
    } catch (err) {
      if (!(err as { retriable?: boolean }).retriable || attempt >= attempts) throw err;
    }
    await sleep(Math.min(100 * attempt, 1_000));
  }
}

/** A short-lived admin connection for one task (topic set-up, offsets). */
export async function withAdmin<T>(kafka: Kafka, fn: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect();
  }
}
