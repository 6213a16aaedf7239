/** The credential contract (test/credentials/credentials.suite.ts) in embedded mode: one process, one port. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../app.ts';
import { credentialSuites } from '../../../test/credentials/credentials.suite.ts';

credentialSuites('embedded (npm start)', async (env) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-credentials-'));
  let offset = 0;
  const app = await startEmbedded({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    logger: createLogger('test', 'silent'),
    now: () => new Date(Date.now() + offset),
    smtpUrl: env.smtpUrl,
    rateLimits: env.rateLimits,
    google: null,
    sweepIntervalMs: 200,
  });
  return {
    url: app.url,
    urlB: app.url,
    advanceClock: (ms) => {
      offset += ms;
    },
    stop: async () => {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
