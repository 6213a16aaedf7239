/** The storage quota under a burst (storage-quota.suite.ts) against an embedded app: one process, files on disk. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../../services/embedded/app.ts';
import { storageQuotaSuite, BURST_QUOTA } from './storage-quota.suite.ts';

storageQuotaSuite('embedded (one process, concurrent uploads)', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-quota-'));
  const app = await startEmbedded({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    logger: createLogger('test', 'silent'),
    storageQuota: () => BURST_QUOTA,
  });
  return {
    url: app.url,
    uploadBases: [app.url],
    storedObjects: async (workspaceId) => {
      const dir = path.join(dataDir, 'files', workspaceId);
      return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => !n.endsWith('.part')) : [];
    },
    stop: async () => {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
