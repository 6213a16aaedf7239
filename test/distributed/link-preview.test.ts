/**
 * POST /api/link-preview/fetch in distributed mode: served by the messaging server, reached
 *  - through nginx (deploy/local/ingress.ts with nginx.conf.template: the path a browser uses with
 *    `npm run distributed:up`, /api/link-preview/ -> messaging, the rest of /api -> room), and
 *  - through each gateway replica's HTTP_UPSTREAM (the test stack's path router, the same split).
 * GET /api/link-preview/image (the previews' images through our origin) the same two ways.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LINK_PREVIEW_PATH } from '@ephemera/proto';
import { startDistributedStack } from './stack.ts';
import { startIngress } from '../../deploy/local/ingress.ts';
import { freePort } from '../../deploy/local/infra.ts';
import { http as call, createRoom } from '../helpers/clients.ts';
import {
  expectImageProxyRoute,
  expectLinkPreviewRoute,
  PNG,
  startPageServer,
  type PageServer,
} from '../../services/messaging/test/link-preview/route.shared.ts';

let stack: Awaited<ReturnType<typeof startDistributedStack>>;
let ingress: Awaited<ReturnType<typeof startIngress>>;
let pages: PageServer;
let runDir: string;
const savedAllow = process.env.LINK_PREVIEW_ALLOW_HOSTS;

beforeAll(async () => {
  pages = await startPageServer();
  // read by the messaging server when it starts (in this process) and by gateway-2's child (inherits env)
  process.env.LINK_PREVIEW_ALLOW_HOSTS = `127.0.0.1:${pages.port}`;
  stack = await startDistributedStack();
  runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-link-preview-ingress-'));
  ingress = await startIngress({
    runDir,
    port: await freePort(),
    gateway1Port: stack.gateway1Port,
    gateway2Port: stack.gateway2Port,
    roomPort: stack.roomPort,
    messagingPort: stack.messagingPort,
  });
});
afterAll(async () => {
  if (savedAllow === undefined) delete process.env.LINK_PREVIEW_ALLOW_HOSTS;
  else process.env.LINK_PREVIEW_ALLOW_HOSTS = savedAllow;
  await ingress?.stop();
  await stack?.stop();
  await pages?.close();
  if (runDir) fs.rmSync(runDir, { recursive: true, force: true });
});

describe('link preview route: distributed', () => {
  it('through the nginx ingress (the browser path): 401, 400, 422 and 200 as specified', async () => {
    await expectLinkPreviewRoute(ingress.url, ingress.url, pages);
  });

  it('through both gateway replicas (HTTP_UPSTREAM): the same answers', async () => {
    const { userToken } = await createRoom(stack.urlA);
    for (const base of [stack.urlA, stack.urlB]) {
      const none = await call(base, LINK_PREVIEW_PATH, { body: { url: `${pages.origin}/og` } });
      expect([none.status, none.body.code], base).toEqual([401, 'NOT_AUTHENTICATED']);
      await expect
        .poll(
          async () => {
            const res = await call(base, LINK_PREVIEW_PATH, {
              body: { url: `${pages.origin}/og` },
              headers: { authorization: `Bearer ${userToken}` },
            });
            return [res.status, res.body?.title];
          },
          { timeout: 15_000 },
        )
        .toEqual([200, 'Local page']);
    }
    // the room API still goes to room through the same router
    expect((await call(stack.urlB, `/api/workspaces/check-name/${'free-name-' + Date.now()}`)).status).toBe(200);
  });

  it('preview images through the nginx ingress and both gateway replicas: signed paths only, images only', async () => {
    await expectImageProxyRoute(ingress.url, ingress.url, pages);
    const { userToken } = await createRoom(stack.urlA);
    let image = '';
    await expect
      .poll(
        async () => {
          const res = await call(stack.urlA, LINK_PREVIEW_PATH, {
            body: { url: `${pages.origin}/og?via=gateways` },
            headers: { authorization: `Bearer ${userToken}` },
          });
          image = res.body?.image ?? '';
          return res.status;
        },
        { timeout: 15_000 },
      )
      .toBe(200);
    for (const base of [stack.urlA, stack.urlB]) {
      const res = await fetch(base + image);
      expect([res.status, res.headers.get('content-type'), res.headers.get('content-security-policy')], base).toEqual([
        200,
        'image/png',
        "default-src 'none'; sandbox",
      ]);
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG), base).toBe(true);
      expect((await fetch(`${base}${image.replace(/&s=.*/, '')}`)).status, base).toBe(403);
    }
  });
});
