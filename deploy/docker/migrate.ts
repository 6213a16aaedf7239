/**
 * Migrate-only entry for the chart's pre-install/pre-upgrade hook Job (charts/ephemera/templates/migrations.yaml):
 * applies the room, messaging, billing and admin-analytics SQL migrations, the same ones each service applies on
 * start, and exits.
 * node-pg-migrate takes an advisory lock, so running beside a starting service is safe.
 *   DATABASE_URL=postgres://... node --import tsx deploy/docker/migrate.ts
 */
import { configOrExit, configSpec, commonEnv, createLogger, databaseUrl, migrate } from '@ephemera/platform';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The SQL directories by path, not through the services' modules: importing @ephemera/messaging would load its
// image library (sharp), whose native binary the image leaves out (--omit=optional), and the hook only needs SQL.
const services = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'services');
const ROOM_MIGRATIONS = path.join(services, 'room', 'migrations');
const MESSAGING_MIGRATIONS = path.join(services, 'messaging', 'migrations');
const BILLING_MIGRATIONS = path.join(services, 'billing', 'migrations');
const ADMIN_MIGRATIONS = path.join(services, 'admin-analytics', 'migrations');

const config = configOrExit(configSpec('migrate', { LOG_LEVEL: commonEnv.LOG_LEVEL, DATABASE_URL: databaseUrl() }));
const logger = createLogger('migrate', config.LOG_LEVEL);
try {
  for (const [service, dir] of [
    ['room', ROOM_MIGRATIONS],
    ['messaging', MESSAGING_MIGRATIONS],
    ['billing', BILLING_MIGRATIONS],
    ['admin', ADMIN_MIGRATIONS],
  ] as const) {
    const started = Date.now();
    await migrate(config.DATABASE_URL, dir, service);
    logger.info({ migrations: service, ms: Date.now() - started }, 'migrations applied');
  }
} catch (err) {
  logger.error({ err }, 'migration failed');
  process.exit(1);
}
