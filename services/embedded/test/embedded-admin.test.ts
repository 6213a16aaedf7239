/** The superadmin in embedded mode: admin-analytics as modules of the one process. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger, freePort } from '@ephemera/platform';
import { startEmbedded } from '../app.ts';
import { adminSuites } from '../../../test/admin/harness.ts';

adminSuites('embedded (npm start)', async (env) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-admin-'));
  let offset = 0;
  const app = await startEmbedded({
    port: await freePort(),
    host: '127.0.0.1',
    dataDir,
    logger: createLogger('test', 'silent'),
    now: () => new Date(Date.now() + offset),
    smtpUrl: env.smtpUrl,
    superadminEmail: env.superadminEmail,
    rateLimits: env.rateLimits,
    google: null,
  });
  return {
    url: app.url,
    advanceClock: (ms) => {
      offset += ms;
    },
    data: { query: (sql, params) => app.admin.context.pool.query(sql, params), roomKeyDir: path.join(dataDir, 'keys') },
    stop: async () => {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
