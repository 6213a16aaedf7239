/**
 * The event log on Kafka (distributed mode), via kafkajs.
 *  - durability: an idempotent producer with acks=all; append() resolves when the broker has the records. Appends
 *    made while one is in flight go together in the next request (group commit, see append()).
 *  - order: the record key (workspace id) is the partition key, so one room's events stay in one partition.
 *  - at-least-once: a handler that throws is retried in place (same record, same partition, backoff) until it
 *    succeeds, so neither the record nor its successors on that partition are skipped; offsets are committed
 *    only for records whose handler resolved (the consumer side: kafka-consumer.ts).
 */
import net from 'node:net';
import tls from 'node:tls';
import { Kafka, Partitioners, logLevel, type ISocketFactory, type LogEntry, type Producer } from 'kafkajs';
import type { Topic } from '@ephemera/proto';
import type { EventLog, LogRecord, SubscribeOptions, Subscription } from './port.ts';
import { createLogger, type Logger } from '../log.ts';
import { KafkaLagReader } from './lag.ts';
import { waitForLeaders, withAdmin } from './topic-offsets.ts';
import { subscribeKafka } from './kafka-consumer.ts';
import { AppendGroups } from './append-groups.ts';
import './kafkajs-idle-fix.ts'; // before any client exists: kafkajs' 1 ms idle timer loop (see the file)

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
    await withAdmin(this.kafka, async (admin) => {
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

  /** A consumer in its group (kafka-consumer.ts); stopped with the log. */
  subscribe(options: SubscribeOptions): Promise<Subscription> {
    return subscribeKafka({ kafka: this.kafka, logger: this.logger, lag: this.lag }, options, (s) =>
      this.subscriptions.delete(s),
    ).then((subscription) => {
      this.subscriptions.add(subscription);
      return subscription;
    });
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

  private forwardKafkaLog({ level, log }: LogEntry): void {
    const { message, ...rest } = log;
    // Bounded producer retries are deliberate (see append); kafkajs warns about them on every connect.
    if (message.startsWith('Limiting retries for the idempotent producer')) return;
    if (level === logLevel.ERROR) this.logger.error({ kafkajs: rest }, message);
    else if (level === logLevel.WARN) this.logger.warn({ kafkajs: rest }, message);
  }
}

function isOnlyTopicExists(err: unknown): boolean {
  const e = err as { type?: string; errors?: { type?: string }[] };
  if (e?.type === 'TOPIC_ALREADY_EXISTS') return true;
  return Array.isArray(e?.errors) && e.errors.length > 0 && e.errors.every((x) => x.type === 'TOPIC_ALREADY_EXISTS');
}
