/**
 * The servers' own view of a command's latency, read from the gateways' Prometheus histograms
 * (gateway_command_duration_seconds{event}: the command's frame read to its ack written). A k6 figure such as
 * send-to-ack also counts the ingress, the loopback and the k6 VU's own event loop; this one says how much of it
 * the gateways and the services behind them took. Scraped before and after a scenario; the difference of the
 * cumulative buckets is the scenario's, and its quantiles are interpolated inside a bucket as PromQL's
 * histogram_quantile does (so they are as coarse as the buckets: COMMAND_LATENCY_BUCKETS).
 */

/** Cumulative bucket counts by upper bound (seconds; Infinity for +Inf), summed over every scraped target. */
export type Buckets = Map<number, number>;

const NAME = 'gateway_command_duration_seconds_bucket';

/** The buckets of one event in a Prometheus text exposition (every series of that event, summed per bound). */
export function parseCommandBuckets(text: string, event: string): Buckets {
  const out: Buckets = new Map();
  for (const line of text.split('\n')) {
    if (!line.startsWith(NAME + '{')) continue;
    const m = /^[^{]+\{(.*)\} (\S+)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (labels.event !== event || labels.le === undefined) continue;
    const le = labels.le === '+Inf' ? Infinity : Number(labels.le);
    out.set(le, (out.get(le) ?? 0) + Number(m[2]));
  }
  return out;
}

/** after - before, bound by bound (a target restarted in between would give negatives: clamped to 0). */
export function bucketDelta(before: Buckets, after: Buckets): Buckets {
  const out: Buckets = new Map();
  for (const [le, n] of after) out.set(le, Math.max(0, n - (before.get(le) ?? 0)));
  return out;
}

/** The q-quantile in seconds (histogram_quantile's interpolation), or null without observations. */
export function bucketQuantile(buckets: Buckets, q: number): number | null {
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const total = buckets.get(Infinity) ?? 0;
  if (total === 0 || bounds.length === 0) return null;
  const rank = q * total;
  let prevBound = 0;
  let prevCount = 0;
  for (const le of bounds) {
    const count = buckets.get(le)!;
    if (count >= rank) {
      // beyond the last finite bound there is nothing to interpolate to: the last finite bound, as PromQL answers
      if (le === Infinity) return prevBound;
      return prevBound + ((le - prevBound) * (rank - prevCount)) / Math.max(1e-12, count - prevCount);
    }
    prevBound = le;
    prevCount = count;
  }
  return prevBound;
}

/** Every target's buckets of `event`, summed; a target that does not answer is named in `missing`. */
export async function scrapeCommandBuckets(
  urls: string[],
  event: string,
): Promise<{ buckets: Buckets; missing: string[] }> {
  const buckets: Buckets = new Map();
  const missing: string[] = [];
  await Promise.all(
    urls.map(async (url) => {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
        if (!res.ok) throw new Error(String(res.status));
        for (const [le, n] of parseCommandBuckets(await res.text(), event)) buckets.set(le, (buckets.get(le) ?? 0) + n);
      } catch {
        missing.push(url);
      }
    }),
  );
  return { buckets, missing };
}

/** One line for a scenario's report: count, p50 and p99 of `event` at the gateways over the scenario. */
export function serverLatencyLine(event: string, delta: Buckets, missing: string[]): string {
  const n = delta.get(Infinity) ?? 0;
  const ms = (v: number | null) => (v === null ? 'n/a' : `${(v * 1000).toFixed(1)} ms`);
  const gone = missing.length ? ` (not scraped: ${missing.join(', ')})` : '';
  return `   server side, ${event} at the gateways (gateway_command_duration_seconds: frame in -> ack out; the ingress and k6 come on top): ${n} commands, p50 ${ms(bucketQuantile(delta, 0.5))}, p99 ${ms(bucketQuantile(delta, 0.99))}${gone}`;
}
