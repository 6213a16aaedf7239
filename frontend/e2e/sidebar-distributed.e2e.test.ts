/**
 * The sidebar in a real browser against the distributed topology behind nginx: the ephemera_gw cookie pins A to
 * gateway-1 and B to gateway-2, so every sidebar event (DMs, presence, renames, deletions) crosses replicas.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDistributedStack } from '../../test/distributed/stack.ts';
import { startIngress } from '../../deploy/local/ingress.ts';
import { freePort } from '../../deploy/local/infra.ts';
import { registerSidebarScenario } from './sidebar.scenario.ts';
import type { CookieSpec } from './browser.ts';

const pinTo = (replica: string): CookieSpec[] => [{ name: 'ephemera_gw', value: replica, domain: '127.0.0.1', path: '/socket.io/' }];

registerSidebarScenario('distributed (A on gateway-1, B on gateway-2)', async () => {
  const stack = await startDistributedStack();
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-sidebar-ingress-'));
  let ingress: Awaited<ReturnType<typeof startIngress>>;
  try {
    ingress = await startIngress({
      runDir, port: await freePort(), gateway1Port: stack.gateway1Port, gateway2Port: stack.gateway2Port, roomPort: stack.roomPort,
    });
  } catch (err) {
    await stack.stop();
    fs.rmSync(runDir, { recursive: true, force: true });
    throw err;
  }
  return {
    urlA: ingress.url,
    urlB: ingress.url,
    cookiesA: pinTo('gateway-1'),
    cookiesB: pinTo('gateway-2'),
    replicaA: 'gateway-1',
    replicaB: 'gateway-2',
    stop: async () => {
      await ingress.stop();
      await stack.stop();
      fs.rmSync(runDir, { recursive: true, force: true });
    },
  };
});
