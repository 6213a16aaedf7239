/**
 * The browser journey against embedded mode (`npm start`): one process serves the built frontend, the HTTP API
 * and the socket on one port, so A and B open the same origin.
 */
import os from 'node:os';
import path from 'node:path';
import { registerJourney } from './journey.scenario.ts';
import { embeddedTarget } from './targets.ts';

registerJourney('embedded (one process, one port)', () => embeddedTarget('embedded'), {
  screenshotPath: path.join(os.tmpdir(), 'ephemera-e2e-embedded-room.png'),
});
