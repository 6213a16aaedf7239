/**
 * The browser journey against embedded mode (`npm start`): one process serves the built frontend, the HTTP API
 * and the socket on one port, so A and B open the same origin.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../../services/embedded/app.ts';
import { registerJourney } from './journey.scenario.ts';

registerJourney('embedded (one process, one port)', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-embedded-'));
  try {
    const app = await startEmbedded({ port: 0, host: '127.0.0.1', dataDir, logger: createLogger('e2e', 'silent') });
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
}, { screenshotPath: path.join(os.tmpdir(), 'ephemera-e2e-embedded-room.png') });
