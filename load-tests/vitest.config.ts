import { defineConfig } from 'vitest/config';

// The harness's unit tests alone (`npm test -w load-tests`), without the root config's global Kafka/Postgres setup.
export default defineConfig({ test: { include: ['**/*.test.ts'], exclude: ['**/node_modules/**'] } });
