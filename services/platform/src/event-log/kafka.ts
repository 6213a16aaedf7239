/**
 * The event log on Kafka (distributed mode), via kafkajs.
 *  - durability: an idempotent producer with acks=all; append() resolves when the broker has the records. Appends
 *    made while one is in flight go together in the next request (group commit, see append()).
 *  - order: the record key (workspace id) is the partition key, so one room's events stay in one partition.
 *  - at-least-once: a handler that throws is retried in place (same record, same partition, backoff) until it
 *    succeeds, so neither the record nor its successors on that partition are skipped; offsets are committed
 *    only for records whose handler resolved.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import net from 'node:net';
import tls from 'node:tls';
import {
  Kafka,
  Partitioners,
  logLevel,
  type ISocketFactory,
  type Admin,
  type ConsumerRunConfig,
  type KafkaMessage,
  type LogEntry,
  type Producer,
} from 'kafkajs';
import { parseEnvelope, type Topic } from '@ephemera/proto';
import type { Delivery, EventLog, LogRecord, SubscribeOptions, Subscription } from './port.ts';
import { createLogger, type Logger } from '../log.ts';
import { registerLagSource } from '../metrics-consumer-lag.ts';
import { KafkaLagReader } from './lag.ts';
import { fetchTopicEnds, partitionId, waitForLeaders } from './topic-offsets.ts';
import { OffsetCommitter } from './offset-committer.ts';
import { ConsumerRestarter } from './consumer-restarter.ts';
import { AppendGroups } from './append-groups.ts';
import './kafkajs-idle-fix.ts'; // before any client exists: kafkajs' 1 ms idle timer loop (see the file)

/** How long the broker holds an empty fetch (the consumers' long poll); see subscribe(). */
const FETCH_MAX_WAIT_MS = 2_000;
/**
 * A gathering consumer's fetch (SubscribeOptions.gather) is answered once this much has arrived, or after the wait:
 * about a hundred chat messages. Everyone else's is answered at the first byte.
 */
const GATHER_MIN_BYTES = 64 * 1024;

export interface KafkaEventLogOptions {
  brokers: string[];
  clientId: string;
  logger?: Logger;
  /** partitions for topics created by init(); rooms spread over them by key */
  partitions?: number;
}

/**
 * kafkajs leaves Nagle's algorithm on. A consumer connection always has a long-polled fetch outstanding, so a
 * request written behind it (a heartbeat, the next fetch) can wait for the broker's delayed ACK (up to 40 ms on
 * Linux). Every request here is latency-sensitive and written whole, so send at once.
 */
const noDelaySocket: ISocketFactory = ({ host, port, ssl, onConnect }) => {
  const socket = ssl
    ? tls.connect({ host, port, ...(net.isIP(host) ? {} : { servername: host }), ...ssl }, onConnect)
    : net.connect({ host, port, noDelay: true }, onConnect);
  socket.setNoDelay(true);
  socket.setKeepAlive(true, 60_000);
  return socket;
};

const RETRY_MIN_MS = 50;
const RETRY_MAX_MS = 5_000;
const CAUGHT_UP_POLL_MS = 25;
/** how long a handled position may wait before it is committed (offset-committer.ts) */
const COMMIT_INTERVAL_MS = 1_000;
/** records handed to handleMany at once (one projection transaction) */
const MAX_HANDLED_TOGETHER = 500;

/** a record as sent: its event serialized once, when appended */
interface OutgoingMessage {
  topic: Topic;
  key: string;
  value: string;
  headers: LogRecord['headers'];
}
/** At most this much in one produce request: the broker refuses a batch over its message.max.bytes (1 MB by default). */
const MAX_GROUP_RECORDS = 1_000;
const MAX_GROUP_BYTES = 512 * 1024;

export class KafkaEventLog implements EventLog {
  private readonly kafka: Kafka;
  private readonly logger: Logger;
  private producer: Promise<Producer> | undefined;
  /** appends waiting for the one in flight go together (group commit, append-groups.ts) */
  private readonly appends = new AppendGroups<OutgoingMessage>((messages) => this.produce(messages), {
    maxRecords: MAX_GROUP_RECORDS,
    maxBytes: MAX_GROUP_BYTES,
    bytesOf: (m) => m.value.length,
  });
  private readonly subscriptions = new Set<Subscription>();
  /** the lag gauge's reader (one admin connection, opened at the first scrape) */
  private readonly lag: KafkaLagReader;

  constructor(private readonly options: KafkaEventLogOptions) {
    this.logger = options.logger ?? createLogger(options.clientId).child({ component: 'kafka-event-log' });
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      logLevel: logLevel.WARN, // kafkajs is chatty at INFO; warnings and errors still reach our JSON log
      logCreator: () => (entry) => this.forwardKafkaLog(entry),
      retry: { initialRetryTime: 100, retries: 8 },
      socketFactory: noDelaySocket,
    });
    this.lag = new KafkaLagReader(this.kafka);
  }

  async init(topics: Topic[]): Promise<void> {
    await this.withAdmin(async (admin) => {
      const existing = new Set(await admin.listTopics());
      const missing = topics.filter((t) => !existing.has(t));
      if (missing.length === 0) return;
      try {
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => ({
            topic,
            numPartitions: this.options.partitions ?? 4,
            replicationFactor: 1,
          })),
        });
      } catch (err) {
        // Another process may have created it since listTopics.
        if (isOnlyTopicExists(err)) return;
        // Created, but the broker did not yet know it when kafkajs asked for the leaders: ask again (waitForLeaders).
        if (!(err as { retriable?: boolean }).retriable) throw err;
        await waitForLeaders(admin, missing);
      }
    });
  }

  /**
   * Group commit, as the embedded log does: appends made while one is in flight wait for it and then go together in
   * the next request, each caller answered with its request's outcome. The producer has one request in flight at a
   * time (idempotent), so concurrent appends (many rooms sending at once) queued one round trip each; together they
   * cost one. An append alone goes at once.
   */
  append(records: LogRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    return this.appends.append(
      records.map((r) => ({ topic: r.topic, key: r.key, value: JSON.stringify(r.event), headers: r.headers })),
    );
  }

  private async produce(messages: OutgoingMessage[]): Promise<void> {
    const producer = await this.getProducer();
    const byTopic = new Map<Topic, OutgoingMessage[]>();
    for (const m of messages) {
      const ofTopic = byTopic.get(m.topic);
      if (ofTopic) ofTopic.push(m);
      else byTopic.set(m.topic, [m]);
    }
    try {
      await producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, ms]) => ({
          topic,
          messages: ms.map(({ key, value, headers }) => ({ key, value, headers })),
        })),
      });
    } catch (err) {
      // After retries ran out the broker may still have the batch, and this producer's sequence numbers may no
      // longer match the broker's. Start the next append on a fresh producer id; the caller sees the error and
      // retries the command, and a duplicate that results is absorbed by consumers deduping on event id.
      this.dropProducer(producer);
      throw err;
    }
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    const consumer = this.kafka.consumer({
      groupId: options.groupId,
      // Short timeouts so a crashed member's partitions move on quickly; the broker allows >= 3 s (server.properties).
      sessionTimeout: 10_000,
      rebalanceTimeout: 15_000,
      // An idle consumer costs a fetch per maxWait and a heartbeat per interval, here and in the broker: with 500 ms
      // the fetches were 0.5-0.9 % of a core in each idle service and 2.6 % in the broker. The broker answers a fetch
      // as soon as data arrives (minBytes 1), so the wait adds no delivery latency. What it does lengthen: a stop
      // (kafkajs lets the fetch in flight finish) and noticing a rebalance (heartbeats go between fetches), each by
      // up to the wait, hence not kafkajs' 5 s. kafkajs also sleeps maxWait between the first tries of a new
      // assignment; kafkajs-idle-fix.ts keeps that sleep short. Heartbeats: a third of the session timeout.
      heartbeatInterval: 3_000,
      maxWaitTimeInMs: FETCH_MAX_WAIT_MS,
      minBytes: options.gather ? GATHER_MIN_BYTES : 1,
      allowAutoTopicCreation: false,
      // kafkajs restarts a crashed consumer by itself only for some causes, and without the seeks that decide where an
      // uncommitted partition resumes: the restarter below restarts it for every cause, with them.
      retry: { initialRetryTime: 100, retries: 8, restartOnFailure: async () => false },
    });
    let stopping = false;
    const stopped = new AbortController(); // cuts a retry back-off short when the subscription stops
    // For the lag gauge: the partitions this member owns (from each rebalance) and the next offset it will handle.
    let assigned: Record<string, number[]> = {};
    const handledUpTo = new Map<string, bigint>();
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      assigned = payload.memberAssignment;
    });
    const committer = new OffsetCommitter({
      consumer,
      groupId: options.groupId,
      logger: this.logger,
      intervalMs: COMMIT_INTERVAL_MS,
      handledUpTo,
      owns: (topic, partition) => assigned[topic]?.includes(partition) ?? false,
    });
    let runConfig: ConsumerRunConfig; // the handlers, set below; every (re)start runs with them
    const restarter = new ConsumerRestarter({
      consumer,
      groupId: options.groupId,
      logger: this.logger,
      isStopping: () => stopping,
      stopped: stopped.signal,
      run: async () => {
        await consumer.connect();
        await consumer.run(runConfig);
      },
      // Partitions the group has no committed position for would start at "latest": resume them where this member was.
      seeks: async () =>
        options.fromBeginning
          ? []
          : (await this.withAdmin((admin) => uncommittedPartitions(admin, options.groupId, options.topics))).flatMap(
              ({ topic, partition }) => {
                const next = handledUpTo.get(partitionId(topic, partition));
                return next === undefined ? [] : [{ topic, partition, offset: next.toString() }];
              },
            ),
    });
    await consumer.connect();
    try {
      const startAtEnd = options.fromBeginning ? [] : await this.endsOfUncommitted(options.groupId, options.topics);
      // The group's starting point is its first position to commit: nothing before it is this group's to handle.
      for (const seek of startAtEnd) handledUpTo.set(partitionId(seek.topic, seek.partition), BigInt(seek.offset));
      await consumer.subscribe({ topics: options.topics, fromBeginning: options.fromBeginning });
      // Retried until it succeeds (or the subscription stops): kafkajs then resolves nothing, so nothing is skipped.
      const untilHandled = async (
        handle: () => Promise<void>,
        where: Record<string, unknown>,
        heartbeat: () => Promise<void>,
      ) => {
        for (let attempt = 0; ; attempt++) {
          try {
            await handle();
            return;
          } catch (err) {
            if (stopping) throw err;
            this.logger.error({ err, groupId: options.groupId, ...where, attempt }, 'event handler failed; retrying');
            await sleep(Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** attempt), undefined, {
              signal: stopped.signal,
            }).catch(() => {
              throw err;
            });
            await heartbeat(); // keep the partition while retrying; throws (-> rejoin) if the group rebalanced
          }
        }
      };
      const handleMany = options.handleMany;
      runConfig = handleMany
        ? {
            autoCommit: false, // the committer commits handled positions every second, not after every batch
            eachBatchAutoResolve: false,
            // What one fetch brought for a partition, in chunks of at most MAX_HANDLED_TOGETHER, each all or nothing.
            eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
              const id = partitionId(batch.topic, batch.partition);
              for (let i = 0; i < batch.messages.length && isRunning() && !isStale(); i += MAX_HANDLED_TOGETHER) {
                const chunk = batch.messages.slice(i, i + MAX_HANDLED_TOGETHER);
                const deliveries = chunk.flatMap(
                  (m) => this.toDelivery(batch.topic as Topic, batch.partition, m) ?? [],
                );
                if (deliveries.length)
                  await untilHandled(
                    () => handleMany(deliveries),
                    { positions: `${deliveries[0].position}+${deliveries.length}` },
                    heartbeat,
                  );
                const last = chunk[chunk.length - 1].offset;
                resolveOffset(last);
                handledUpTo.set(id, BigInt(last) + 1n);
                await heartbeat();
              }
            },
          }
        : {
            autoCommit: false,
            eachMessage: async ({ topic, partition, message, heartbeat }) => {
              const delivery = this.toDelivery(topic as Topic, partition, message);
              if (delivery)
                await untilHandled(
                  () => options.handler(delivery),
                  { position: delivery.position, eventId: delivery.event.id },
                  heartbeat,
                );
              handledUpTo.set(partitionId(topic, partition), BigInt(message.offset) + 1n); // (a malformed record: skipped for good)
            },
          };
      // Applied before the first fetch is used (kafkajs drops records fetched before a pending seek) and committed.
      // A consumer that crashed while starting is started again by the restarter, which seeks then.
      if (await restarter.firstRun(() => consumer.run(runConfig))) for (const seek of startAtEnd) consumer.seek(seek);
    } catch (err) {
      await committer.close();
      await consumer.disconnect().catch(() => {});
      throw err;
    }
    const unregisterLag = registerLagSource(() => this.lag.read(options, assigned, handledUpTo));
    const subscription: Subscription = {
      stop: async () => {
        if (stopping) return;
        stopping = true;
        stopped.abort();
        await restarter.settled(); // a restart under way ends before the consumer is disconnected for good
        unregisterLag();
        this.subscriptions.delete(subscription);
        await committer.close(); // what was handled is committed before the group is left
        await consumer.disconnect(); // leaves the group, so others rebalance at once
      },
      caughtUp: () =>
        this.waitForCommitted(
          options.groupId,
          options.topics,
          () => stopping,
          (broker) => {
            committer.reconcile(broker);
            return committer.commit();
          },
        ),
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.lag.close();
    const producer = await this.producer?.catch(() => undefined);
    this.producer = undefined;
    await producer?.disconnect();
  }

  /** One producer per log, shared by concurrent appends; created on first use. */
  private getProducer(): Promise<Producer> {
    this.producer ??= (async () => {
      const producer = this.kafka.producer({
        idempotent: true, // broker drops a retried batch it already has: no duplicates from our own retries
        maxInFlightRequests: 1, // kafkajs' idempotent sequence numbers are only safe with one request in flight
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner, // Java-compatible murmur2: same key, same partition
      });
      await producer.connect();
      return producer;
    })();
    const pending = this.producer;
    pending.catch(() => {
      if (this.producer === pending) this.producer = undefined; // let the next append try to connect again
    });
    return pending;
  }

  private dropProducer(producer: Producer): void {
    void this.producer?.then(
      (current) => {
        if (current !== producer) return;
        this.producer = undefined;
        producer.disconnect().catch(() => {});
      },
      () => {},
    );
  }

  /**
   * fromBeginning:false means "records appended after subscribe() resolved". kafkajs would resolve "latest" at
   * its first fetch, after run() returns, and lose records appended in between. So read the end offsets now,
   * for partitions where the group has no position yet, and seek there once the consumer runs.
   * (admin.setOffsets would do it too, but it joins the group with a throwaway consumer: ~5 s per subscribe.)
   */
  private async endsOfUncommitted(
    groupId: string,
    topics: Topic[],
  ): Promise<{ topic: string; partition: number; offset: string }[]> {
    return this.withAdmin(async (admin) => {
      const unset = await uncommittedPartitions(admin, groupId, topics);
      const seeks = await Promise.all(
        [...new Set(unset.map((u) => u.topic))].map(async (topic) => {
          const ends = await fetchTopicEnds(admin, topic);
          return ends
            .filter((e) => unset.some((u) => u.topic === topic && u.partition === e.partition))
            .map((e) => ({ topic, partition: e.partition, offset: e.high }));
        }),
      );
      return seeks.flat();
    });
  }

  /**
   * caughtUp(): wait until the group's committed offsets reach the end offsets read now. Committed offsets count
   * only records whose handler resolved, and cover every member of the group. This member commits what it handled
   * before each look (`commitOwn`); other members of the group commit theirs within COMMIT_INTERVAL_MS.
   */
  private async waitForCommitted(
    groupId: string,
    topics: Topic[],
    isStopping: () => boolean,
    commitOwn: (brokerCommitted: Map<string, bigint>) => Promise<void>,
  ): Promise<void> {
    await this.withAdmin(async (admin) => {
      const targets = (
        await Promise.all(
          topics.map(async (topic) =>
            (await fetchTopicEnds(admin, topic))
              .filter((p) => p.high !== p.low) // nothing to handle in an empty partition
              .map((p) => ({ id: partitionId(topic, p.partition), end: BigInt(p.high) })),
          ),
        )
      ).flat();
      for (;;) {
        if (isStopping()) throw new Error(`subscription ${groupId} stopped before it caught up`);
        const committed = new Map<string, bigint>();
        for (const { topic, partitions } of await admin.fetchOffsets({ groupId, topics })) {
          for (const p of partitions) committed.set(partitionId(topic, p.partition), BigInt(p.offset));
        }
        if (targets.every((t) => (committed.get(t.id) ?? -1n) >= t.end)) return;
        await commitOwn(committed).catch(() => {}); // refused during a rebalance: looked at again after the next poll
        await sleep(CAUGHT_UP_POLL_MS);
      }
    });
  }

  private toDelivery(topic: Topic, partition: number, message: KafkaMessage): Delivery | undefined {
    const position = `${topic}/${partition}@${message.offset}`;
    try {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(message.headers ?? {})) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.map(String).join(',') : value.toString();
      }
      const event = parseEnvelope(JSON.parse(message.value?.toString() ?? 'null'));
      return { topic, key: message.key?.toString() ?? '', event, headers, position };
    } catch (err) {
      // Retrying cannot fix a record this code cannot parse, and waiting on it would stall every room on the
      // partition: log it loudly and move on.
      this.logger.error({ err, position }, 'malformed event in the log; skipped');
      return undefined;
    }
  }

  private async withAdmin<T>(fn: (admin: Admin) => Promise<T>): Promise<T> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      return await fn(admin);
    } finally {
      await admin.disconnect();
    }
  }

  private forwardKafkaLog({ level, log }: LogEntry): void {
    const { message, ...rest } = log;
    // Bounded producer retries are deliberate (see append); kafkajs warns about them on every connect.
    if (message.startsWith('Limiting retries for the idempotent producer')) return;
    if (level === logLevel.ERROR) this.logger.error({ kafkajs: rest }, message);
    else if (level === logLevel.WARN) this.logger.warn({ kafkajs: rest }, message);
  }
}

/** The partitions of `topics` the group has no committed position for. */
async function uncommittedPartitions(
  admin: Admin,
  groupId: string,
  topics: Topic[],
): Promise<{ topic: string; partition: number }[]> {
  return (await admin.fetchOffsets({ groupId, topics })).flatMap(({ topic, partitions }) =>
    partitions.filter((p) => p.offset === '-1').map((p) => ({ topic, partition: p.partition })),
  );
}

function isOnlyTopicExists(err: unknown): boolean {
  const e = err as { type?: string; errors?: { type?: string }[] };
  if (e?.type === 'TOPIC_ALREADY_EXISTS') return true;
  return Array.isArray(e?.errors) && e.errors.length > 0 && e.errors.every((x) => x.type === 'TOPIC_ALREADY_EXISTS');
}
