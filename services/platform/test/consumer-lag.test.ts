/**
 * Consumer lag from inside the services (ephemera_consumer_lag_records on /metrics), for both event-log adapters:
 * a consumer whose handler is held back shows the records waiting behind it, and 0 once it has handled them.
 * Scraped over HTTP from the metrics listener, as Prometheus does.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, it } from 'vitest';
import { kafkaBrokers } from '../../../test/helpers/infra.ts';
import { TOPICS } from '@ephemera/proto';
import { EmbeddedEventLog } from '../src/event-log/embedded.ts';
import { KafkaEventLog } from '../src/event-log/kafka.ts';
import { NamespacedEventLog } from '../src/event-log/namespaced.ts';
import type { EventLog } from '../src/event-log/port.ts';
import { startMetricsServer, type MetricsServer } from '../src/metrics-server.ts';
import { createTestDatabase } from '../../../test/helpers/db.ts';
import { roomRecord as record } from './log-records.ts';

let metrics: MetricsServer;
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  while (closers.length) await closers.pop()!().catch(() => {});
  await metrics?.stop();
});

async function scrapeLag(group: string, topic: string): Promise<number | undefined> {
  metrics ??= await startMetricsServer({ port: 0 });
  const text = await (await fetch(`http://127.0.0.1:${metrics.port}/metrics`)).text();
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('ephemera_consumer_lag_records{') &&
        l.includes(`group="${group}"`) &&
        l.includes(`topic="${topic}"`),
    );
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One held-back consumer: 5 records appended, lag 5 while the handler waits, 0 after it is let go. */
async function lagMoves(log: EventLog, group: string, topic: string): Promise<void> {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let handled = 0;
  const sub = await log.subscribe({
    groupId: group.split('.').pop()!,
    topics: [TOPICS.room],
    fromBeginning: false,
    handler: async () => {
      await gate;
      handled++;
    },
  });
  closers.push(() => sub.stop());
  const key = `ws-lag-${randomUUID().slice(0, 8)}`;
  await log.append([1, 2, 3, 4, 5].map((s) => record(key, s)));
  await until(async () => (await scrapeLag(group, topic)) === 5);
  release();
  await until(async () => handled === 5 && (await scrapeLag(group, topic)) === 0);
}

describe('consumer lag on /metrics', () => {
  it('embedded log: records behind a held-back consumer, then 0', async () => {
    const pool = new pg.Pool({ connectionString: await createTestDatabase() });
    closers.push(() => pool.end());
    const log = new EmbeddedEventLog(pool);
    await log.init(Object.values(TOPICS));
    closers.push(() => log.close());
    await lagMoves(log, 'lag-embedded', TOPICS.room);
  });

  it('Kafka log: records behind a held-back consumer, then 0', async () => {
    // A namespace of its own: the topic holds only this test's records (other files share the broker).
    const namespace = `lag${randomUUID().slice(0, 8)}`;
    const log = new NamespacedEventLog(
      new KafkaEventLog({ brokers: kafkaBrokers(), clientId: 'lag-test', partitions: 2 }),
      namespace,
    );
    await log.init(Object.values(TOPICS));
    closers.push(() => log.close());
    await lagMoves(log, `${namespace}.lag-kafka`, `${namespace}.${TOPICS.room}`);
  }, 60_000);
});
