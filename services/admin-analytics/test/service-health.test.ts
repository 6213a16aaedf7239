/**
 * System Health across services (analytics/service-health.ts): real prom-client registries served over HTTP, as
 * every service's metrics listener serves them; one target down. The answers, 5xx answers and latency sum come
 * from the exposition exactly, and a target that does not answer counts as a down sample.
 */
import { describe, it, expect, afterAll } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import client from 'prom-client';
import { createLogger, freePort } from '@ephemera/platform';
import { ServiceHealth, parseHealthTargets, totalsFromExposition } from '../src/analytics/service-health.ts';

const servers: http.Server[] = [];
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
});

/** a service's registry with the platform's histogram, observed `answers` times per status class */
async function serviceWith(answers: Record<string, number>): Promise<string> {
  const registry = new client.Registry();
  const histogram = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'answers',
    labelNames: ['method', 'route', 'status_class'],
    registers: [registry],
  });
  for (const [statusClass, n] of Object.entries(answers)) {
    for (let i = 0; i < n; i++) histogram.observe({ method: 'GET', route: '/api/x', status_class: statusClass }, 0.25);
  }
  const server = http.createServer(async (_req, res) => {
    res.setHeader('content-type', registry.contentType);
    res.end(await registry.metrics());
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
}

describe('service health', () => {
  it('reads answers, 5xx answers and the latency sum from an exposition', async () => {
    const url = await serviceWith({ '2xx': 7, '4xx': 2, '5xx': 3 });
    expect(totalsFromExposition(await (await fetch(url)).text())).toEqual({ count: 12, errors: 3, sumSeconds: 3 });
    expect(totalsFromExposition('# nothing here\nother_metric_count 5\n')).toEqual({
      count: 0,
      errors: 0,
      sumSeconds: 0,
    });
  });

  it('adds every target that answers, and counts one that does not as down', async () => {
    const a = await serviceWith({ '2xx': 10, '5xx': 1 });
    const b = await serviceWith({ '2xx': 4, '4xx': 1 });
    const down = `http://127.0.0.1:${await freePort()}/metrics`;
    const health = new ServiceHealth([a, b, down], createLogger('test', 'silent'), 60_000, 0);
    try {
      await health.ready();
      expect(health.totals()).toEqual({ count: 16, errors: 1, sumSeconds: 4 });
      expect(health.health()).toEqual({ ok: 2, total: 3 });
      await health.scrapeAll(); // the timer's next round: the latest scrape of each instance counts, not their sum
      expect(health.totals()).toEqual({ count: 16, errors: 1, sumSeconds: 4 });
      expect(health.health()).toEqual({ ok: 4, total: 6 });
    } finally {
      health.stop();
    }
    // in its first minute (the default grace) a target that does not answer yet is not counted down
    const starting = new ServiceHealth([a, down], createLogger('test', 'silent'), 60_000);
    await starting.ready();
    starting.stop();
    expect(starting.health()).toEqual({ ok: 1, total: 1 });
  });

  it('takes only http(s) URLs', () => {
    expect(parseHealthTargets(' http://room:9201/metrics, https://x/metrics ,')).toEqual([
      'http://room:9201/metrics',
      'https://x/metrics',
    ]);
    expect(parseHealthTargets(undefined)).toEqual([]);
    expect(() => parseHealthTargets('file:///etc/passwd')).toThrow(/not an http/);
    expect(() => parseHealthTargets('not a url')).toThrow();
  });
});
