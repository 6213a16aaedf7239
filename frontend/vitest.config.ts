import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Frontend unit tests only (pure logic, node environment), without the repository's global setup:
 *   npx vitest run --config frontend/vitest.config.ts
 * The root config also includes frontend/src/**\/*.test.ts, so `npm test` runs them too.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
  },
});
