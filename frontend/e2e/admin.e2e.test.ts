/**
 * Room administration in a real browser against embedded mode (`npm start`): one process, one port. The tier
 * changes go through the room service's internal change-tier in the same process (EmbeddedApp.rooms), as billing
 * will call it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../../services/embedded/app.ts';
import { registerAdminScenario } from './admin.scenario.ts';

registerAdminScenario('embedded', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-admin-'));
  try {
    const app = await startEmbedded({ port: 0, host: '127.0.0.1', dataDir, logger: createLogger('e2e-admin', 'silent') });
    return {
      urlA: app.url,
      urlB: app.url,
      changeTier: async (workspaceId, tier) => { await app.rooms.changeTier({ workspaceId, tier, reason: 'browser test' }); },
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
