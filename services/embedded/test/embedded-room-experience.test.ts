import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../app.ts';
import { roomExperienceSuites } from '../../../test/suites/room-experience.ts';

roomExperienceSuites('embedded (npm start)', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-embedded-'));
  let offset = 0;
  const app = await startEmbedded({ port: 0, host: '127.0.0.1', dataDir, logger: createLogger('test', 'silent'), now: () => new Date(Date.now() + offset), sweepIntervalMs: 200 });
  return {
    url: app.url,
    advanceClock: (ms) => { offset += ms; },
    stop: async () => { await app.stop(); fs.rmSync(dataDir, { recursive: true, force: true }); },
  };
});
