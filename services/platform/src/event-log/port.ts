/**
 * The event-log port. Two adapters implement it: Kafka (kafkajs, distributed mode) and embedded (a Postgres table
 * with in-process dispatch, `npm start`). Both pass the same contract suite (services/platform/test/event-log.contract.ts).
 *
 * Guarantees every adapter gives:
 *  - append() resolves only once the records are durable (Kafka acks=all / Postgres commit).
 *  - records with the same key keep their append order for every consumer (Kafka partition key / table order).
 *  - delivery is at least once; a consumer group resumes after its last committed position on restart.
 *  - a new group with fromBeginning: true sees the whole topic from the first record (replay).
 */
import type { AnyEventEnvelope, Topic } from '@ephemera/proto';

export interface LogRecord {
  topic: Topic;
  /** partition key: the workspace id */
  key: string;
  event: AnyEventEnvelope;
  /** trace headers (traceparent, tracestate) carried beside the event, like Kafka record headers */
  headers?: Record<string, string>;
}

export interface Delivery extends LogRecord {
  /** adapter-specific position, for logs and tests only */
  position: string;
}

export interface SubscribeOptions {
  /** consumers in one group share the work and the committed position; different groups each see every record */
  groupId: string;
  topics: Topic[];
  /** where a group with no committed position starts: true = first record, false = records appended from now on */
  fromBeginning: boolean;
  /** called in key order; the position is committed after it resolves. Throwing retries the record. */
  handler: (delivery: Delivery) => Promise<void>;
  /**
   * Optional, the same work for several records at once: consecutive records of one partition, in order (so key
   * order holds), all or none (throwing retries them all). An adapter that fetches records in batches (Kafka) uses
   * it when given, so a projection applies what arrived together in one transaction (one commit, one flush) instead
   * of one per record; under load that is what keeps a consumer from falling behind. Others call `handler`.
   */
  handleMany?: (deliveries: Delivery[]) => Promise<void>;
  /**
   * Optional: nobody waits on this consumer's records (a safety net, a policy), so they may arrive a couple of
   * seconds late. An adapter that fetches (Kafka) then lets records gather before a fetch answers: at chat rates
   * one fetch cycle every second or two instead of one per record, for the consumer and for the broker. The
   * embedded log delivers as before.
   */
  gather?: boolean;
}

export interface Subscription {
  stop(): Promise<void>;
  /**
   * Resolves once this subscription has handled every record that was in the log when it was called. A service
   * waits for it at start-up so its read model (sequence numbers, dedupe) is current before it takes commands.
   */
  caughtUp(): Promise<void>;
}

export interface EventLog {
  /** create topics / tables; idempotent */
  init(topics: Topic[]): Promise<void>;
  append(records: LogRecord[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  close(): Promise<void>;
}
