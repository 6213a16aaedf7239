/**
 * The Kafka event log's consumer side (kafka.ts holds the log and its producer): a subscription's kafkajs consumer,
 * its at-least-once handling (a handler that throws is retried in place until it succeeds), where a new group
 * starts, the handled positions it commits, and caughtUp(). Apart from the producer because the two share only the
 * kafkajs client, and each reads as one page.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Admin, ConsumerRunConfig, Kafka, KafkaMessage } from 'kafkajs';
import { parseEnvelope, type Topic } from '@ephemera/proto';
import type { Delivery, SubscribeOptions, Subscription } from './port.ts';
import type { Logger } from '../log.ts';
import { registerLagSource } from '../metrics-consumer-lag.ts';
import type { KafkaLagReader } from './lag.ts';
import { fetchTopicEnds, partitionId, withAdmin } from './topic-offsets.ts';
import { OffsetCommitter } from './offset-committer.ts';
import { ConsumerRestarter } from './consumer-restarter.ts';

/** How long the broker holds an empty fetch (the consumers' long poll); see subscribeKafka(). */
const FETCH_MAX_WAIT_MS = 2_000;
/**
 * A gathering consumer's fetch (SubscribeOptions.gather) is answered once this much has arrived, or after the wait:
 * about a hundred chat messages. Everyone else's is answered at the first byte.
 */
const GATHER_MIN_BYTES = 64 * 1024;
const RETRY_MIN_MS = 50;
const RETRY_MAX_MS = 5_000;
const CAUGHT_UP_POLL_MS = 25;
/** how long a handled position may wait before it is committed (offset-committer.ts) */
const COMMIT_INTERVAL_MS = 1_000;
/** records handed to handleMany at once (one projection transaction) */
const MAX_HANDLED_TOGETHER = 500;

/** What a subscription uses of its log: the kafkajs client, the log's logger and its lag gauge's reader. */
export interface KafkaConsumerContext {
  kafka: Kafka;
  logger: Logger;
  lag: KafkaLagReader;
}

export async function subscribeKafka(
  ctx: KafkaConsumerContext,
  options: SubscribeOptions,
  onStop: (subscription: Subscription) => void,
): Promise<Subscription> {
  const consumer = ctx.kafka.consumer({
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
    logger: ctx.logger,
    intervalMs: COMMIT_INTERVAL_MS,
    handledUpTo,
    owns: (topic, partition) => assigned[topic]?.includes(partition) ?? false,
  });
  let runConfig: ConsumerRunConfig; // the handlers, set below; every (re)start runs with them
  const restarter = new ConsumerRestarter({
    consumer,
    groupId: options.groupId,
    logger: ctx.logger,
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
        : (
            await withAdmin(ctx.kafka, (admin) => uncommittedPartitions(admin, options.groupId, options.topics))
          ).flatMap(({ topic, partition }) => {
            const next = handledUpTo.get(partitionId(topic, partition));
            return next === undefined ? [] : [{ topic, partition, offset: next.toString() }];
          }),
  });
  await consumer.connect();
  try {
    const startAtEnd = options.fromBeginning ? [] : await endsOfUncommitted(ctx.kafka, options.groupId, options.topics);
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
          ctx.logger.error({ err, groupId: options.groupId, ...where, attempt }, 'event handler failed; retrying');
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
                (m) => toDelivery(ctx.logger, batch.topic as Topic, batch.partition, m) ?? [],
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
            const delivery = toDelivery(ctx.logger, topic as Topic, partition, message);
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
  const unregisterLag = registerLagSource(() => ctx.lag.read(options, assigned, handledUpTo));
  const subscription: Subscription = {
    stop: async () => {
      if (stopping) return;
      stopping = true;
      stopped.abort();
      await restarter.settled(); // a restart under way ends before the consumer is disconnected for good
      unregisterLag();
      onStop(subscription);
      await committer.close(); // what was handled is committed before the group is left
      await consumer.disconnect(); // leaves the group, so others rebalance at once
    },
    caughtUp: () =>
      waitForCommitted(
        ctx.kafka,
        options.groupId,
        options.topics,
        () => stopping,
        (broker) => {
          committer.reconcile(broker);
          return committer.commit();
        },
      ),
  };
  return subscription;
}

/**
 * fromBeginning:false means "records appended after subscribe() resolved". kafkajs would resolve "latest" at
 * its first fetch, after run() returns, and lose records appended in between. So read the end offsets now,
 * for partitions where the group has no position yet, and seek there once the consumer runs.
 * (admin.setOffsets would do it too, but it joins the group with a throwaway consumer: ~5 s per subscribe.)
 */
async function endsOfUncommitted(
  kafka: Kafka,
  groupId: string,
  topics: Topic[],
): Promise<{ topic: string; partition: number; offset: string }[]> {
  return withAdmin(kafka, async (admin) => {
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
async function waitForCommitted(
  kafka: Kafka,
  groupId: string,
  topics: Topic[],
  isStopping: () => boolean,
  commitOwn: (brokerCommitted: Map<string, bigint>) => Promise<void>,
): Promise<void> {
  await withAdmin(kafka, async (admin) => {
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

function toDelivery(logger: Logger, topic: Topic, partition: number, message: KafkaMessage): Delivery | undefined {
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
    logger.error({ err, position }, 'malformed event in the log; skipped');
    return undefined;
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
