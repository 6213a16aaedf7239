/** Payments in embedded mode: the billing module in the one process, Stripe's SDK against stripe-mock. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../app.ts';
import { paymentSuites } from '../../../test/payments/harness.ts';

paymentSuites('embedded (npm start)', async (env) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-payments-'));
  let offset = 0;
  const app = await startEmbedded({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    logger: createLogger('test', 'silent'),
    now: () => new Date(Date.now() + offset),
    smtpUrl: env.smtpUrl,
    superadminEmail: env.superadminEmail,
    rateLimits: env.rateLimits,
    google: null,
    payments: env.payments,
  });
  return {
    url: app.url,
    siteUrl: app.url, // no PUBLIC_URL: the server's own address (HOST 127.0.0.1 here)
    advanceClock: (ms) => {
      offset += ms;
    },
    stop: async () => {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
