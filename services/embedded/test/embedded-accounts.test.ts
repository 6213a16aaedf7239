/** Accounts in embedded mode: the billing module in the one process, its callback on the app's port. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../app.ts';
import { accountSuites } from '../../../test/accounts/harness.ts';

accountSuites('embedded (npm start)', async (env, port) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-accounts-'));
  let offset = 0;
  const app = await startEmbedded({
    port,
    host: '127.0.0.1',
    dataDir,
    logger: createLogger('test', 'silent'),
    now: () => new Date(Date.now() + offset),
    smtpUrl: env.smtpUrl,
    superadminEmail: env.superadminEmail,
    google: env.google,
    rateLimits: env.rateLimits,
  });
  return {
    url: app.url,
    contact: app.billing.contact,
    advanceClock: (ms) => {
      offset += ms;
    },
    stop: async () => {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
