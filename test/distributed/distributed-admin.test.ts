/**
 * The superadmin (docs/product/admin.md) distributed: admin-analytics as its own server on Kafka, Postgres and Redis,
 * reading every
 * topic with the keys of their owners (room, billing, its own), and acting through billing's, room's and messaging's
 * internal routes; requests through two gateway replicas, whose HTTP goes through the ingress's path routing.
 */
import { adminSuites } from '../admin/harness.ts';
import { startDistributedStack } from './stack.ts';
import { freePort } from '../../deploy/local/infra.ts';
import { createPool } from '@ephemera/platform';

adminSuites('distributed (Kafka, Postgres, Redis; admin-analytics its own server)', async (env) => {
  const stack = await startDistributedStack({
    accounts: {
      port: await freePort(),
      smtpUrl: env.smtpUrl,
      superadminEmail: env.superadminEmail,
      rateLimits: env.rateLimits,
    },
    admin: true,
  });
  const pool = createPool(stack.databaseUrl, 2);
  return {
    url: stack.urlA,
    urlB: stack.urlB,
    advanceClock: stack.advanceClock,
    data: { query: (sql, params) => pool.query(sql, params), roomKeyDir: stack.roomKeyDir },
    stop: async () => {
      await pool.end();
      await stack.stop();
    },
  };
});
