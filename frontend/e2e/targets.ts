/**
 * The two ways of running, as browser-test targets. Embedded: one process, one port for A and B. Distributed: the
 * test stack behind nginx (the same ingress as `npm run distributed:up`, link previews routed to messaging); the
 * ephemera_gw cookie pins A to gateway-1 and B to gateway-2, so every event crosses replicas.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../../services/embedded/app.ts';
import { startDistributedStack } from '../../test/distributed/stack.ts';
import { startIngress } from '../../deploy/local/ingress.ts';
import { freePort } from '../../deploy/local/infra.ts';
import type { CookieSpec } from './browser.ts';

const pinTo = (replica: string): CookieSpec[] => [
  { name: 'ephemera_gw', value: replica, domain: '127.0.0.1', path: '/socket.io/' },
];

export async function embeddedTarget(name: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `ephemera-e2e-${name}-`));
  try {
    const app = await startEmbedded({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      logger: createLogger(`e2e-${name}`, 'silent'),
      frontendDist: process.env.E2E_FRONTEND_DIST,
    });
    return {
      urlA: app.url,
      urlB: app.url,
      /** the room service's internal change-tier in the same process (EmbeddedApp.rooms), as billing will call it */
      changeTier: async (workspaceId: string, tier: 'free' | 'pro' | 'business') => {
        await app.rooms.changeTier({ workspaceId, tier, reason: 'browser test' });
      },
      stop: async () => {
        await app.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

export async function distributedTarget(name: string) {
  const stack = await startDistributedStack();
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), `ephemera-e2e-${name}-ingress-`));
  let ingress: Awaited<ReturnType<typeof startIngress>>;
  try {
    ingress = await startIngress({
      runDir,
      port: await freePort(),
      gateway1Port: stack.gateway1Port,
      gateway2Port: stack.gateway2Port,
      roomPort: stack.roomPort,
      messagingPort: stack.messagingPort,
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
}
