/**
 * The System Health and System tab figures from this process's real metrics, not from events:
 *  - answers and their latency: the prom-client histogram http_request_duration_seconds (platform metrics-http.ts)
 *    in the default registry, labelled by status class. Embedded mode times every HTTP answer of the product (one
 *    express app); distributed mode this service's own answers plus every other service instance's, scraped from its
 *    /metrics (service-health.ts).
 *  - uptime: readiness samples (the database answers SELECT 1, as /readyz checks) taken every SAMPLE_MS since this
 *    process started, and, distributed, the scrapes of every other service instance (service-health.ts): the share
 *    that succeeded. Availability across this process's own restarts is Prometheus' job.
 *  - database query time: one timed round trip now.
 *  - blocked addresses: the per-address rate limits refusing right now (RateLimits.blocked).
 */
import { isIP } from 'node:net';
import { metrics, type LimitName, type Logger, type Pool, type RateLimits } from '@ephemera/platform';
import { percent, round } from './days.ts';
import { pingDatabase } from './database-ping-repository.ts';
import { addTotals, ServiceHealth, totalsFromExposition, type HistogramTotals } from './service-health.ts';

const SAMPLE_MS = 15_000;
const SAMPLE_TIMEOUT_MS = 5_000;

/**
 * every answer of this process so far: how many, how many 5xx, and their summed latency (read from the registry's
 * exposition the same way another service's is read: service-health.ts totalsFromExposition)
 */
async function ownHttpTotals(): Promise<HistogramTotals> {
  const name = 'http_request_duration_seconds';
  if (!metrics.register.getSingleMetric(name)) return { count: 0, errors: 0, sumSeconds: 0 };
  return totalsFromExposition(await metrics.register.getSingleMetricAsString(name));
}

/** errorRate: 5xx answers / all answers, percent with two decimals */
export const errorRateOf = (t: HistogramTotals): number => percent(t.errors, t.count, 2);
/** averageResponseTime: mean latency of every answer, ms with two decimals */
export const averageResponseMsOf = (t: HistogramTotals): number =>
  t.count ? round((t.sumSeconds / t.count) * 1000) : 0;

/**
 * Readiness sampled in the background (the timer never keeps the process alive; it stops with the pool), and the
 * other services' metrics when they run apart (service-health.ts, ADMIN_HEALTH_TARGETS).
 */
export class ReadinessSamples {
  private ok = 0;
  private total = 0;
  private readonly timer: NodeJS.Timeout;
  readonly services: ServiceHealth;

  constructor(
    private readonly pool: Pool,
    options: { targets?: string[]; logger: Logger; intervalMs?: number },
  ) {
    const intervalMs = options.intervalMs ?? SAMPLE_MS;
    this.services = new ServiceHealth(options.targets ?? [], options.logger, intervalMs);
    void this.sample();
    this.timer = setInterval(() => {
      void this.sample();
    }, intervalMs);
    this.timer.unref();
  }

  /** this process's answers and, as of their latest scrape, every other service instance's */
  async httpTotals(): Promise<HistogramTotals> {
    return addTotals([await ownHttpTotals(), this.services.totals()]);
  }

  private async sample(): Promise<void> {
    if ((this.pool as Pool & { ended?: boolean }).ended) {
      clearInterval(this.timer);
      this.services.stop();
      return;
    }
    let timeout: NodeJS.Timeout | undefined;
    const ready = await Promise.race([
      pingDatabase(this.pool).then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((r) => {
        timeout = setTimeout(() => r(false), SAMPLE_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timeout);
    this.total += 1;
    if (ready) this.ok += 1;
  }

  /** percent of samples up (this process's database checks and the other services' scrapes), two decimals; 100 before any */
  uptime(): number {
    const { ok, total } = this.services.health();
    return this.total + total === 0 ? 100 : percent(this.ok + ok, this.total + total, 2);
  }
}

/** one database round trip, in ms with two decimals */
export async function databaseQueryMs(pool: Pool): Promise<number> {
  const started = process.hrtime.bigint();
  await pingDatabase(pool);
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
