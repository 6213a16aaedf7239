/**
 * Consumer lag for the ephemera_consumer_lag_records gauge (metrics-consumer-lag.ts), one reader per adapter.
 * Both are read when /metrics is scraped, never polled in between.
 */
import type { Admin, Kafka } from 'kafkajs';
import type { Pool } from '../pg.ts';
import type { LagReading } from '../metrics-consumer-lag.ts';
import type { SubscribeOptions } from './port.ts';
import { fetchTopicEnds, partitionId } from './topic-offsets.ts';

/**
 * Kafka: lag of one group member, per topic, over the partitions it owns: the log end offset minus the next offset
 * it will handle (what it handled, else the group's committed offset, else where a new group starts). One admin
 * connection per event log, opened at the first scrape and opened again after a failure.
 */
export class KafkaLagReader {
  private admin: Promise<Admin> | undefined;

  constructor(private readonly kafka: Kafka) {}

  async read(
    options: SubscribeOptions,
    assigned: Record<string, number[]>,
    handledUpTo: Map<string, bigint>,
  ): Promise<LagReading[]> {
    this.admin ??= (async () => {
      const admin = this.kafka.admin();
      await admin.connect();
      return admin;
    })();
    const pending = this.admin;
    try {
      const admin = await pending;
      const committed = new Map<string, bigint>();
      for (const { topic, partitions } of await admin.fetchOffsets({
        groupId: options.groupId,
        topics: options.topics,
      })) {
        for (const p of partitions) committed.set(partitionId(topic, p.partition), BigInt(p.offset));
      }
      return await Promise.all(
        options.topics.map(async (topic) => {
          const owned = new Set(assigned[topic] ?? []);
          let lag = 0n;
          for (const p of await fetchTopicEnds(admin, topic)) {
            if (!owned.has(p.partition)) continue;
            const id = partitionId(topic, p.partition);
            const committedAt = committed.get(id) ?? -1n;
            const position =
              handledUpTo.get(id) ?? (committedAt >= 0n ? committedAt : BigInt(options.fromBeginning ? p.low : p.high));
            if (BigInt(p.high) > position) lag += BigInt(p.high) - position;
          }
          return { group: options.groupId, topic, lag: Number(lag) };
        }),
      );
    } catch (err) {
      if (this.admin === pending) this.admin = undefined; // reconnect at the next scrape
      void pending
        .then(
          (a) => a.disconnect(),
          () => {},
        )
        .catch(() => {});
      throw err;
    }
  }

  async close(): Promise<void> {
    const admin = await this.admin?.catch(() => undefined);
    this.admin = undefined;
    await admin?.disconnect().catch(() => {});
  }
}

/** Embedded log: rows of each topic after the position the subscription has handed over (topic/position index). */
export async function embeddedLag(pool: Pool, options: SubscribeOptions, position: bigint): Promise<LagReading[]> {
  const { rows } = await pool.query(
    'SELECT topic, count(*)::int AS n FROM event_log WHERE position > $1 AND topic = ANY($2) GROUP BY topic',
    [position.toString(), options.topics],
  );
  const byTopic = new Map<string, number>(rows.map((r) => [r.topic as string, r.n as number]));
  return options.topics.map((topic) => ({ group: options.groupId, topic, lag: byTopic.get(topic) ?? 0 }));
}
