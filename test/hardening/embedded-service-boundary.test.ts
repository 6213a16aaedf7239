/** The service boundary in embedded mode: the one public port (modules call each other by method, no internal route). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createLogger } from '@ephemera/platform';
import { startEmbedded, type EmbeddedApp } from '../../services/embedded/app.ts';
import { serviceBoundarySuite } from './service-boundary.suite.ts';

let app: EmbeddedApp;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-boundary-'));
beforeAll(async () => {
  app = await startEmbedded({ port: 0, host: '127.0.0.1', dataDir, logger: createLogger('test', 'silent') });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

serviceBoundarySuite(() => ({ url: app.url, entries: [{ name: 'embedded', url: app.url }] }));
