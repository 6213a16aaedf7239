/**
 * The System Health and System tab figures from this process's real metrics, not from events:
 *  - answers and their latency: the prom-client histogram http_request_duration_seconds (platform metrics-http.ts)
 *    in the default registry, labelled by status class. Embedded mode times every HTTP answer of the product (one
 *    express app); distributed mode this service's own answers (each service exports its own to Prometheus).
 *  - uptime: readiness samples (the database answers SELECT 1, as /readyz checks) taken every SAMPLE_MS since this
 *    process started: the share that succeeded. A process that is down takes no samples, so this is the uptime of
 *    the running service's dependencies; availability across restarts is Prometheus' job.
 *  - database query time: one timed round trip now.
 *  - blocked addresses: the per-address rate limits refusing right now (RateLimits.blocked).
 */
import { isIP } from 'node:net';
import { metrics, type LimitName, type Pool, type RateLimits } from '@ephemera/platform';
import { percent, round } from './days.ts';

const SAMPLE_MS = 15_000;
const SAMPLE_TIMEOUT_MS = 5_000;

interface HistogramTotals { count: number; errors: number; sumSeconds: number }

/** every answer so far: how many, how many 5xx, and their summed latency */
export async function httpTotals(): Promise<HistogramTotals> {
  const metric = metrics.register.getSingleMetric('http_request_duration_seconds');
  const totals: HistogramTotals = { count: 0, errors: 0, sumSeconds: 0 };
  if (!metric) return totals;
  const { values } = await metric.get();
  for (const v of values) {
    const name = (v as { metricName?: string }).metricName ?? '';
    if (name.endsWith('_count')) {
      totals.count += v.value;
      if (v.labels.status_class === '5xx') totals.errors += v.value;
    } else if (name.endsWith('_sum')) {
      totals.sumSeconds += v.value;
    }
  }
  return totals;
}

/** errorRate: 5xx answers / all answers, percent with two decimals */
export const errorRateOf = (t: HistogramTotals): number => percent(t.errors, t.count, 2);
/** averageResponseTime: mean latency of every answer, ms with two decimals */
export const averageResponseMsOf = (t: HistogramTotals): number => (t.count ? round((t.sumSeconds / t.count) * 1000) : 0);

/** Readiness sampled in the background (the timer never keeps the process alive; it stops with the pool). */
export class ReadinessSamples {
  private ok = 0;
  private total = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pool: Pool, intervalMs = SAMPLE_MS) {
    void this.sample();
    this.timer = setInterval(() => { void this.sample(); }, intervalMs);
    this.timer.unref();
  }

  private async sample(): Promise<void> {
    if ((this.pool as Pool & { ended?: boolean }).ended) { clearInterval(this.timer); return; }
    let timeout: NodeJS.Timeout | undefined;
    const ready = await Promise.race([
      this.pool.query('SELECT 1').then(() => true, () => false),
      new Promise<boolean>((r) => { timeout = setTimeout(() => r(false), SAMPLE_TIMEOUT_MS); }),
    ]);
    clearTimeout(timeout);
    this.total += 1;
    if (ready) this.ok += 1;
  }

  /** percent of samples ready, two decimals; 100 before the first sample is in */
  uptime(): number {
    return this.total === 0 ? 100 : percent(this.ok, this.total, 2);
  }
}

/** one database round trip, in ms with two decimals */
export async function databaseQueryMs(pool: Pool): Promise<number> {
  const started = process.hrtime.bigint();
  await pool.query('SELECT 1');
  return round(Number(process.hrtime.bigint() - started) / 1e6);
}

/** the limits that are counted per client address: a refusal of one is a blocked address */
const ADDRESS_LIMITS = (limits: RateLimits): LimitName[] =>
  (Object.keys(limits.config) as LimitName[]).filter((name) => name.endsWith('PerAddress'));

/** the client addresses a per-address limit refuses right now (keys with a prefix, e.g. "link-preview-image:", lose it) */
export async function blockedAddresses(limits: RateLimits): Promise<string[]> {
  const keys = await limits.blocked(ADDRESS_LIMITS(limits));
  const addresses = keys.map((k) => (isIP(k) ? k : k.replace(/^[a-z-]+:/i, ''))).filter((a) => isIP(a) !== 0);
  return [...new Set(addresses)].sort();
}
