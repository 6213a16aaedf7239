import { defineConfig } from 'vitest/config';

/** Every test file of the repository; each belongs to exactly one project below. */
const allTests = [
  'proto/**/*.test.ts',
  'services/**/*.test.ts',
  'test/**/*.test.ts',
  'frontend/src/**/*.test.{ts,tsx}',
  'frontend/e2e/**/*.test.ts',
  'load-tests/**/*.test.ts',
];

/**
 * Files that need nothing running: no PostgreSQL, Redis or Kafka (test/helpers/infra.ts), no embedded app or
 * distributed stack, no Chromium, nginx or Go tools; in-process servers on loopback are fine. test/unit-setup.ts
 * stops a file here that starts any program but node and openssl. A services/ or test/ file not listed here runs in
 * the integration project: list a new one here when `npm run test:unit` passes it.
 */
const unit = [
  'proto/**/*.test.ts',
  'frontend/src/**/*.test.{ts,tsx}',
  'load-tests/**/*.test.ts',
  'services/admin-analytics/test/{backup-format,backup-store,backup-upload,key-source,maintenance-guard,service-health}.test.ts',
  'services/embedded/test/{config,config-start}.test.ts',
  'services/gateway/test/{body-handoff,call-leases,command-dispatch,engine-io-ping-grid,origin,origin-forwarded,socket-io-polling-walk}.test.ts',
  'services/gateway/test/engine/*.test.ts',
  'services/messaging/test/files/{file-cipher-thread,file-crypto}.test.ts',
  'services/messaging/test/link-preview/{fetcher,image-proxy,url}.test.ts',
  'services/messaging/test/search-tokens.test.ts',
  'services/platform/test/{command-rpc,internal-batch,memory-ephemeral,mutex-and-namespace,public-route,recycled-buffers}.test.ts',
  'services/platform/test/{room-keys,service-client,service-credential,telemetry-none,web-static}.test.ts',
  'services/room/test/{room-experience-rules,room-rules}.test.ts',
  'test/payments/reminder-stages.test.ts',
  'test/payments/auto-renewal-decisions.test.ts',
  'test/telemetry.test.ts',
  'test/unit-project.test.ts',
  'test/import-rules.test.ts',
];
/** the browser suites: Debian's Chromium against the embedded app and the distributed stack */
const e2e = ['frontend/e2e/**/*.test.ts'];
/** Lighthouse's scores: a trace of the page's own work, so they run alone, after every other project (groupOrder) */
const lighthouse = ['frontend/e2e/lighthouse/**/*.test.ts'];
/**
 * Browser files that load the machine for minutes (10,000 messages in one page): alone, after the other browser files
 * and before Lighthouse, so neither they nor their neighbours measure each other's load (groupOrder)
 */
const heavyE2e = ['frontend/e2e/message-list-long.e2e.test.ts'];
/** deployment: helm and kubeconform, a real kube-apiserver, compose, the images, the dependency check, metrics and traces */
const ops = ['test/ops/**/*.test.ts'];

// Postgres, Redis and Kafka start once per run (a JVM start is the slow part) and are shared by all files of every
// project that names this setup (test/global-setup.ts starts them for the first and stops them after the last).
const sharedInfra = ['test/global-setup.ts'];

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Two cores, and the servers under test run on the same machine.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: unit, setupFiles: ['test/unit-setup.ts'] } },
      {
        extends: true,
        test: { name: 'integration', include: allTests, exclude: [...unit, ...e2e, ...ops], globalSetup: sharedInfra },
      },
      {
        extends: true,
        test: { name: 'e2e', include: e2e, exclude: [...lighthouse, ...heavyE2e], globalSetup: sharedInfra },
      },
      { extends: true, test: { name: 'ops', include: ops, globalSetup: sharedInfra } },
      // embedded only: no shared servers
      { extends: true, test: { name: 'e2e-heavy', include: heavyE2e, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'lighthouse', include: lighthouse, sequence: { groupOrder: 2 } } },
    ],
  },
});
