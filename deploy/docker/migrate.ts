/**
 * Migrate-only entry for the chart's pre-install/pre-upgrade hook Job (charts/ephemera/templates/migrations.yaml):
 * applies the room, messaging and billing SQL migrations, the same ones each service applies on start, and exits.
 * node-pg-migrate takes an advisory lock, so running beside a starting service is safe.
 *   DATABASE_URL=postgres://... node --import tsx deploy/docker/migrate.ts
 */
import { z } from 'zod';
import { loadConfig, commonEnv, createLogger, migrate } from '@ephemera/platform';
import { ROOM_MIGRATIONS } from '@ephemera/room';
import { MESSAGING_MIGRATIONS } from '@ephemera/messaging';
import { BILLING_MIGRATIONS } from '@ephemera/billing';

const config = loadConfig(z.object({ LOG_LEVEL: commonEnv.LOG_LEVEL, DATABASE_URL: z.string().url() }));
const logger = createLogger('migrate', config.LOG_LEVEL);
try {
  for (const [service, dir] of [['room', ROOM_MIGRATIONS], ['messaging', MESSAGING_MIGRATIONS], ['billing', BILLING_MIGRATIONS]] as const) {
    const started = Date.now();
    await migrate(config.DATABASE_URL, dir, service);
    logger.info({ migrations: service, ms: Date.now() - started }, 'migrations applied');
  }
} catch (err) {
  logger.error({ err }, 'migration failed');
  process.exit(1);
}
