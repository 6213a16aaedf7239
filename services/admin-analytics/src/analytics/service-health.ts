/**
 * The other services' real metrics, for System Health (uptime, error rate) and the average response time, when they
 * run as processes of their own (distributed mode). ADMIN_HEALTH_TARGETS lists their Prometheus /metrics addresses;
 * each is scraped every SAMPLE_MS, at every address its host name resolves to (a Kubernetes headless Service names
 * every pod of a Deployment, so every gateway replica counts):
 *  - a scrape that answers is an "up" sample of that instance, one that fails or times out a "down" one (but in the
 *    first minute after this process started: the services start in any order);
 *  - its http_request_duration_seconds histogram (platform metrics-http.ts: every service exports it, labelled by
 *    status class) gives the instance's answers, 5xx answers and summed latency since it started; the latest scrape
 *    of each instance is added to this process's own.
 * Embedded mode has no targets: the one process's own histogram already times every answer of the product.
 * Prometheus itself, with the chart's rules and dashboard, remains the place for history; this is the dashboard's
 * summary of now.
 */
import { lookup } from 'node:dns/promises';
import type { Logger } from '@ephemera/platform';

export interface HistogramTotals {
  count: number;
  errors: number;
  sumSeconds: number;
}
export interface HealthSample {
  ok: number;
  total: number;
}

const SCRAPE_TIMEOUT_MS = 2_000;
/** services start in any order (Kubernetes, the local stack): a failed scrape this soon after our own start is not a down sample */
const STARTUP_GRACE_MS = 60_000;
const LINE = /^http_request_duration_seconds_(count|sum)(?:\{([^}]*)\})?\s+(\S+)/;

/** The histogram's totals in a Prometheus text exposition (the format prom-client writes). */
export function totalsFromExposition(text: string): HistogramTotals {
  const totals: HistogramTotals = { count: 0, errors: 0, sumSeconds: 0 };
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const value = Number(m[3]);
    if (!Number.isFinite(value)) continue;
    if (m[1] === 'sum') {
      totals.sumSeconds += value;
      continue;
    }
    totals.count += value;
    if (/(?:^|,)status_class="5xx"/.test(m[2] ?? '')) totals.errors += value;
  }
  return totals;
}

/** the sum of several processes' totals */
export function addTotals(all: Iterable<HistogramTotals>): HistogramTotals {
  const sum: HistogramTotals = { count: 0, errors: 0, sumSeconds: 0 };
  for (const t of all) {
    sum.count += t.count;
    sum.errors += t.errors;
    sum.sumSeconds += t.sumSeconds;
  }
  return sum;
}

/** The instances of the targets, scraped in the background; the timer never keeps the process alive. */
export class ServiceHealth {
  private readonly latest = new Map<string, HistogramTotals>();
  private readonly samples: HealthSample = { ok: 0, total: 0 };
  private readonly timer: NodeJS.Timeout | null;
  private readonly firstRound: Promise<void>;
  private readonly startedAt = Date.now();

  constructor(
    private readonly targets: string[],
    private readonly logger: Logger,
    intervalMs: number,
    private readonly graceMs = STARTUP_GRACE_MS,
  ) {
    this.firstRound = this.scrapeAll();
    if (targets.length === 0) {
      this.timer = null;
      return;
    }
    this.timer = setInterval(() => {
      void this.scrapeAll();
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** resolves once the first round of scrapes is in */
  ready(): Promise<void> {
    return this.firstRound;
  }

  /** every instance's answers as of its latest scrape */
  totals(): HistogramTotals {
    return addTotals(this.latest.values());
  }

  /** scrapes that answered / scrapes, since this process started */
  health(): HealthSample {
    return { ...this.samples };
  }

  /** one round: every address of every target (exposed for tests, which do not wait for the timer) */
  async scrapeAll(): Promise<void> {
    await Promise.all(
      this.targets.map(async (target) => {
        for (const instance of await instancesOf(target)) await this.scrape(target, instance);
      }),
    );
  }

  private async scrape(target: string, instance: string): Promise<void> {
    try {
      const res = await fetch(instance, { signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      this.latest.set(instance, totalsFromExposition(await res.text()));
      this.samples.ok += 1;
      this.samples.total += 1;
    } catch (err) {
      if (Date.now() - this.startedAt < this.graceMs) return; // still starting up, perhaps before it
      this.samples.total += 1;
      this.logger.warn(
        { target, instance, err: { message: (err as Error).message } },
        'service metrics not scraped; counted as down',
      );
    }
  }
}

/** the target at each address its host resolves to (an IP or an unresolvable name: the target itself) */
async function instancesOf(target: string): Promise<string[]> {
  const url = new URL(target);
  try {
    const addresses = await lookup(url.hostname, { all: true });
    if (addresses.length <= 1) return [target];
    return addresses.map(({ address, family }) => {
      const u = new URL(target);
      u.hostname = family === 6 ? `[${address}]` : address;
      return u.toString();
    });
  } catch {
    return [target]; // the scrape fails and counts as down
  }
}

/** ADMIN_HEALTH_TARGETS: comma-separated http(s) URLs of /metrics endpoints */
export function parseHealthTargets(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const url = new URL(s);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new Error(`ADMIN_HEALTH_TARGETS: not an http(s) URL: ${s}`);
      return url.toString();
    });
}
