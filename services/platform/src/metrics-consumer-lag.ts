/**
 * Consumer lag measured from inside the services: for each consumer group and topic this process consumes, how
 * many records are in the log after the position this process has handled (log end offset minus the processed or
 * committed position). The alert "consumer lag growing" and the dashboard read it; it needs no exporter beside
 * Kafka and works the same on the embedded log.
 *
 * Each event-log subscription registers a source; the gauge asks every source when /metrics is scraped (nothing
 * is polled between scrapes, so an idle process pays nothing). A source that cannot answer in time (the broker is
 * down) keeps its last reading rather than dropping the series, which would hide the lag behind "no data".
 */
import client from 'prom-client';
import { withTimeout } from './timeout.ts';

export interface LagReading {
  group: string;
  topic: string;
  lag: number;
}
export type LagSource = () => Promise<LagReading[]>;

const READ_TIMEOUT_MS = 2_000;
const sources = new Map<LagSource, LagReading[]>();

/** Report a subscription's lag on /metrics until the returned function is called (the subscription stopped). */
export function registerLagSource(source: LagSource): () => void {
  sources.set(source, []);
  return () => {
    sources.delete(source);
  };
}

/** Every source's current readings, summed per group and topic (one process may run several members of a group). */
export async function readConsumerLag(): Promise<LagReading[]> {
  await Promise.all(
    [...sources.keys()].map(async (source) => {
      const readings = await withTimeout(source(), READ_TIMEOUT_MS, () => new Error('lag read timed out')).catch(
        () => undefined,
      );
      if (readings && sources.has(source)) sources.set(source, readings);
    }),
  );
  const sums = new Map<string, LagReading>();
  for (const readings of sources.values()) {
    for (const r of readings) {
      const key = `${r.group}\u0000${r.topic}`;
      const sum = sums.get(key);
      if (sum) sum.lag += r.lag;
      else sums.set(key, { ...r });
    }
  }
  return [...sums.values()];
}

export const consumerLagGauge = new client.Gauge({
  name: 'ephemera_consumer_lag_records',
  help: 'records in the event log after the position this process has handled, per consumer group and topic',
  labelNames: ['group', 'topic'] as const,
  async collect() {
    const readings = await readConsumerLag();
    this.reset();
    for (const r of readings) this.set({ group: r.group, topic: r.topic }, r.lag);
  },
});
