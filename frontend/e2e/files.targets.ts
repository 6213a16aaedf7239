/**
 * The two ways of running for the files browser tests (docs/product/files.md): embedded with files on local disk,
 * distributed with files in S3 (versitygw) behind the nginx ingress, alice pinned to gateway-1 and bob to gateway-2.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { chromium } from 'playwright-core';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../../services/embedded/app.ts';
import { startDistributedStack } from '../../test/distributed/stack.ts';
import { startVersitygw } from '../../test/helpers/versitygw.ts';
import { startIngress } from '../../deploy/local/ingress.ts';
import { freePort } from '../../deploy/local/infra.ts';
import type { Browser } from 'playwright-core';
import { C } from '@ephemera/proto';
import { createRoom, joinRoom, request, socketJoin } from '../../test/helpers/clients.ts';
import { CHROMIUM_PATH, FRONTEND_DIST, uniqueRoomName, User, type CookieSpec } from './browser.ts';

export const DIST = process.env.E2E_FRONTEND_DIST ?? FRONTEND_DIST;
export const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
];

export interface FilesTarget {
  base: string;
  cookiesA: CookieSpec[];
  cookiesB: CookieSpec[];
  replicaA?: string;
  replicaB?: string;
  stop(): Promise<void>;
}

export async function embedded(): Promise<FilesTarget> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-files-'));
  const app = await startEmbedded({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    logger: createLogger('e2e-files', 'silent'),
    frontendDist: DIST,
  });
  return {
    base: app.url,
    cookiesA: [],
    cookiesB: [],
    stop: async () => {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function distributed(): Promise<FilesTarget> {
  const s3 = await startVersitygw();
  const stack = await startDistributedStack({ s3 });
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-files-ingress-'));
  const ingress = await startIngress({
    runDir,
    port: await freePort(),
    gateway1Port: stack.gateway1Port,
    gateway2Port: stack.gateway2Port,
    roomPort: stack.roomPort,
    messagingPort: stack.messagingPort,
    frontendDist: DIST,
  });
  const pin = (replica: string): CookieSpec[] => [
    { name: 'ephemera_gw', value: replica, domain: '127.0.0.1', path: '/socket.io/' },
  ];
  return {
    base: ingress.url,
    cookiesA: pin('gateway-1'),
    cookiesB: pin('gateway-2'),
    replicaA: 'gateway-1',
    replicaB: 'gateway-2',
    stop: async () => {
      await ingress.stop();
      await stack.stop();
      await s3.stop();
      fs.rmSync(runDir, { recursive: true, force: true });
    },
  };
}

export interface RoomOptions {
  /** run for each person's page before it enters the room (permissions, init scripts) */
  beforeEnter?(u: User): Promise<void>;
  /**
   * a DM between alice and bob before they enter (dmId): a DM partner leaves Available to message, where the files
   * test reads bob's picture, so only the tests that need one ask for it
   */
  dm?: boolean;
}

/**
 * A new free room with #general (and, with `dm`, a DM between alice (the owner) and bob), each in a browser page,
 * #general open.
 */
export async function filesRoom(t: FilesTarget, browser: Browser, users: User[], options: RoomOptions = {}) {
  const name = uniqueRoomName('files');
  const created = await createRoom(t.base, name, 'alice');
  const workspaceId = created.workspaceId as string;
  const joined = await joinRoom(t.base, workspaceId, 'bob');
  const { socket } = await socketJoin(t.base, workspaceId, 'alice', created.userToken);
  const general = await request(socket, C.createChannel, {
    workspaceId,
    name: 'general',
    type: 'topic',
    isPrivate: false,
  });
  const dm = options.dm
    ? await request(socket, C.createDmChannel, { workspaceId, targetUserId: joined.user.id })
    : null;
  socket.close();
  if (!general.success) throw new Error(general.message);
  if (dm && !dm.success) throw new Error(dm.message);
  const open = async (username: string, token: string, cookies: CookieSpec[], replica?: string) => {
    const u = await User.open(browser, username, t.base, cookies, replica);
    users.push(u);
    await u.context.grantPermissions(['microphone']);
    await options.beforeEnter?.(u);
    await u.enterRoom({ workspaceId, userToken: token, username, roomName: name });
    await u.page.locator(`[data-testid="channel-row"][data-channel-id="${general.channel.id}"]`).click();
    await u.byTestId('composer-textarea').waitFor();
    return u;
  };
  return {
    alice: await open('alice', created.userToken, t.cookiesA, t.replicaA),
    bob: await open('bob', joined.userToken, t.cookiesB, t.replicaB),
    generalId: general.channel.id,
    dmId: dm?.success ? dm.channel.id : '',
  };
}

/**
 * One files browser suite's lifetime, called inside its describe: the target and Chromium start before its tests and
 * stop after them, with every page a test opened. `room` opens a new room for a test; `base` is the target's address.
 */
export function filesSuite(start: () => Promise<FilesTarget>) {
  let target: FilesTarget | undefined;
  let browser: Browser | undefined;
  const users: User[] = [];
  beforeAll(async () => {
    if (!fs.existsSync(path.join(DIST, 'index.html')))
      throw new Error(`${DIST}/index.html is missing: build the frontend first (npm run build:frontend)`);
    [target, browser] = await Promise.all([
      start(),
      chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS }),
    ]);
  }, 240_000);
  afterAll(async () => {
    for (const u of users) await u.close();
    await browser?.close().catch(() => {});
    await target?.stop();
  });
  return {
    room: (options?: RoomOptions) => filesRoom(target!, browser!, users, options),
    base: () => target!.base,
  };
}
