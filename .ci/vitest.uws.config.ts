/**
 * The uWS engine's suites, for .ci/uws-root.sh: the gateway's engine contract, body handoff and polling-walk tests,
 * which need no PostgreSQL, Redis or Kafka (so no global setup), run with REQUIRE_UWS=1 so uWS must load.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: [
      'services/gateway/test/engine/*.test.ts',
      'services/gateway/test/body-handoff.test.ts',
      'services/gateway/test/socket-io-polling-walk.test.ts',
    ],
    testTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
