/** The embedded app as a test target (journey and room-experience suites): a temp DATA_DIR and a clock tests can move. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@ephemera/platform';
import { startEmbedded, type EmbeddedOptions } from '../app.ts';
import type { Target } from '../../../test/suites/journey.suite.ts';
import { CALL_TEST_ICE, CALL_TEST_RING_TIMEOUT_MS } from '../../../test/helpers/call-config.ts';

export async function startEmbeddedTarget(opts: { bigRoom?: EmbeddedOptions['bigRoom'] } = {}): Promise<Target> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-embedded-'));
  let offset = 0;
  const app = await startEmbedded({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    logger: createLogger('test', 'silent'),
    now: () => new Date(Date.now() + offset),
    sweepIntervalMs: 200,
    calls: { ringTimeoutMs: CALL_TEST_RING_TIMEOUT_MS, ice: CALL_TEST_ICE },
    bigRoom: opts.bigRoom,
  });
  return {
    url: app.url,
    advanceClock: (ms) => {
      offset += ms;
    },
    changeTier: async (workspaceId, tier) => {
      await app.rooms.changeTier({ workspaceId, tier, reason: 'test' });
    },
    services: { rooms: app.rooms, messaging: app.messaging },
    // embedded stores files on local disk: DATA_DIR/files/{workspaceId}/
    readStoredObject: async (key) => fs.readFileSync(path.join(dataDir, 'files', ...key.split('/'))),
    storedObjects: async (workspaceId) => {
      const dir = path.join(dataDir, 'files', workspaceId);
      if (!fs.existsSync(dir)) return [];
      return fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => `${workspaceId}/${e.name}`)
        .sort();
    },
    stop: async () => {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
