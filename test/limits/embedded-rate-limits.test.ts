/**
 * The rate-limit tests (and the bad-input and metrics checks) against an embedded app with memory counters,
 * started with low limits, trusting loopback as a proxy, and /metrics on a port of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../../services/embedded/app.ts';
import { rateLimitSuite, LOW_LIMITS } from './rate-limits.suite.ts';

rateLimitSuite('embedded (memory)', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-limits-'));
  const app = await startEmbedded({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    logger: createLogger('test', 'silent'),
    rateLimits: LOW_LIMITS,
    trustedProxies: ['loopback'],
    metrics: { port: 0, host: '127.0.0.1' },
  });
  return {
    A: app.url,
    B: app.url,
    metricsPorts: app.metricsPort ? [app.metricsPort] : [],
    stop: async () => {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
