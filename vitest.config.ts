import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'proto/**/*.test.ts',
      'services/**/*.test.ts',
      'test/**/*.test.ts',
      'frontend/src/**/*.test.{ts,tsx}',
      'frontend/e2e/**/*.test.ts',
      'load-tests/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    // Postgres, Redis and Kafka start once per run (a JVM start is the slow part) and are shared by all files.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Two cores, and the servers under test run on the same machine.
    maxWorkers: 2,
  },
});
