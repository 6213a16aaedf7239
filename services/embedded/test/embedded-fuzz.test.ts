import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../app.ts';
import { fuzzSuite } from '../../../test/suites/fuzz.suite.ts';

fuzzSuite('embedded', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-fuzz-'));
  const app = await startEmbedded({ port: 0, host: '127.0.0.1', dataDir, logger: createLogger('test', 'silent') });
  return {
    url: app.url,
    stop: async () => {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
