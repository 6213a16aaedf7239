/**
 * Where the backed-up read models stand in the event log, and which log that is.
 *  - embedded: the log is a table in the same database, so the position is read inside the backup's own snapshot
 *    (exactly consistent): the admin-analytics group's committed offset and the log's head. The log's identity is
 *    its first record's event id (a fresh install's log starts with another event).
 *  - Kafka: the group's committed offsets per partition, read beside the snapshot (a lower bound: processed_events,
 *    which is in the snapshot, says exactly which events were applied). Identity: the cluster id and namespace.
 * The restore replays the log over the snapshot only when it is the same log, from this position (seedGroup).
 */
import { Kafka, logLevel } from 'kafkajs';
import { TOPICS } from '@ephemera/proto';
import type { PoolClient } from '@ephemera/platform';
import { firstLogEventId, groupOffsets, hasEmbeddedLog, insertGroupOffset, logHead } from './event-log-repository.ts';

/** the admin module's consumer group (module.ts) */
export const ADMIN_GROUP = 'admin-analytics';

export type LogPosition =
  | {
      kind: 'embedded';
      logId: string | null;
      group: string;
      head: string;
      offsets: Array<{ topics: string; position: string }>;
    }
  | {
      kind: 'kafka';
      logId: string;
      group: string;
      offsets: Array<{ topic: string; partition: number; offset: string }>;
    }
  | { kind: 'unknown'; logId: null };

export interface KafkaLocation {
  brokers: string[];
  namespace?: string;
}

/** the embedded log's position, read with `client` (inside the backup's snapshot) */
export async function embeddedPosition(client: PoolClient): Promise<LogPosition> {
  // one client, one snapshot: the queries run in turn
  const first = await firstLogEventId(client);
  const head = await logHead(client);
  const offsets = await groupOffsets(client, ADMIN_GROUP);
  return {
    kind: 'embedded',
    logId: first !== null ? `embedded:${first}` : null,
    group: ADMIN_GROUP,
    head,
    offsets: offsets.map((r) => ({ topics: r.topic, position: r.position })),
  };
}

/** the Kafka group's committed offsets and the cluster's identity (one short admin connection) */
export async function kafkaPosition(where: KafkaLocation): Promise<LogPosition> {
  const admin = new Kafka({
    brokers: where.brokers,
    clientId: 'admin-analytics-backup',
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    const ns = where.namespace ? `${where.namespace}.` : '';
    const topics = Object.values(TOPICS).map((t) => `${ns}${t}`);
    const [cluster, committed] = await Promise.all([
      admin.describeCluster(),
      admin.fetchOffsets({ groupId: `${ns}${ADMIN_GROUP}`, topics }),
    ]);
    return {
      kind: 'kafka',
      logId: `kafka:${cluster.clusterId}:${where.namespace ?? ''}`,
      group: ADMIN_GROUP,
      offsets: committed.flatMap(({ topic, partitions }) =>
        partitions.map((p) => ({ topic: topic.slice(ns.length), partition: p.partition, offset: p.offset })),
      ),
    };
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

/** The current log's identity, to compare with a backup's (null: unknown, treated as another log). */
export async function currentLogId(client: PoolClient, kafka: KafkaLocation | undefined): Promise<string | null> {
  if (await hasEmbeddedLog(client)) return (await embeddedPosition(client)).logId;
  if (kafka) return (await kafkaPosition(kafka)).logId;
  return null;
}

/**
 * Starts a new consumer group where `position` says the backed-up read models stand, so a replay over a restored
 * backup reads only what came after it (not the whole log). False when the position is not one this log can seek
 * to (the replay then starts from the beginning: applyOnce skips what the backup holds, at the cost of reading more).
 */
export async function seedGroup(
  client: PoolClient,
  kafka: KafkaLocation | undefined,
  groupId: string,
  position: LogPosition,
): Promise<boolean> {
  const topicKey = Object.values(TOPICS).join(','); // the embedded log keys a group's position by its topic list
  if (position.kind === 'embedded' && (await hasEmbeddedLog(client))) {
    const at = position.offsets.find((o) => o.topics === topicKey);
    if (!at) return false;
    await insertGroupOffset(client, groupId, topicKey, at.position);
    return true;
  }
  if (position.kind === 'kafka' && kafka) {
    const ns = kafka.namespace ? `${kafka.namespace}.` : '';
    const byTopic = new Map<string, Array<{ partition: number; offset: string }>>();
    for (const o of position.offsets) {
      if (o.offset === '-1') continue; // the group had not committed there: that partition starts at its beginning
      byTopic.set(o.topic, [...(byTopic.get(o.topic) ?? []), { partition: o.partition, offset: o.offset }]);
    }
    if (byTopic.size > 0)
      await commitStart(
        kafka,
        `${ns}${groupId}`,
        [...byTopic].map(([topic, partitions]) => ({ topic: `${ns}${topic}`, partitions })),
      );
    return true;
  }
  return false;
}

/**
 * Commits a new group's start offsets for every topic at once. kafkajs' admin.setOffsets does one topic per call,
 * each joining the group with a throwaway consumer (seconds apiece); this joins once for all of them, the same way:
 * a consumer that never handles a record commits each seek (autoCommit) and stops at its first fetch.
 */
async function commitStart(
  where: KafkaLocation,
  groupId: string,
  seeks: Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }>,
): Promise<void> {
  const consumer = new Kafka({
    brokers: where.brokers,
    clientId: 'admin-analytics-restore',
    logLevel: logLevel.NOTHING,
  }).consumer({ groupId });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: seeks.map((s) => s.topic), fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      consumer.on(consumer.events.FETCH, () => {
        consumer.stop().then(resolve, reject);
      });
      consumer.run({ eachBatchAutoResolve: false, eachBatch: async () => {} }).catch(reject);
      consumer.pause(seeks.map((s) => ({ topic: s.topic })));
      for (const { topic, partitions } of seeks)
        for (const p of partitions) consumer.seek({ topic, partition: p.partition, offset: p.offset });
    });
  } finally {
    await consumer.disconnect().catch(() => {});
  }
}
