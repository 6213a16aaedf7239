/** The sidebar in a real browser against embedded mode (`npm start`): one process, one port for A and B. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../../services/embedded/app.ts';
import { registerSidebarScenario } from './sidebar.scenario.ts';

registerSidebarScenario('embedded', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-sidebar-'));
  try {
    const app = await startEmbedded({ port: 0, host: '127.0.0.1', dataDir, logger: createLogger('e2e-sidebar', 'silent') });
    return {
      urlA: app.url,
      urlB: app.url,
      stop: async () => {
        await app.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
});
