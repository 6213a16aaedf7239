/**
 * POST /api/link-preview/fetch through the real embedded app (`npm start`: uWS gateway -> express), with a real
 * member token from creating a room. The test allowlist (LINK_PREVIEW_ALLOW_HOSTS) is set to a local page server
 * before the app starts, as an operator would set it in a test environment.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { C, ERRORS, LINK_PREVIEW_PATH } from '@ephemera/proto';
import { createLogger } from '@ephemera/platform';
import { startEmbedded, type EmbeddedApp } from '../../../embedded/app.ts';
import { http as call, createRoom, joinRoom, socketJoin, request, clientId } from '../../../../test/helpers/clients.ts';
import {
  expectImageProxyRoute,
  expectLinkPreviewRoute,
  proxiedImage,
  startPageServer,
  type PageServer,
} from './route.shared.ts';

let app: EmbeddedApp;
let pages: PageServer;
let internal: { server: http.Server; port: number; seen: number };
let dataDir: string;
const savedAllow = process.env.LINK_PREVIEW_ALLOW_HOSTS;

beforeAll(async () => {
  pages = await startPageServer();
  internal = {
    server: http.createServer((_req, res) => {
      internal.seen++;
      res.end('<title>internal</title>');
    }),
    port: 0,
    seen: 0,
  };
  await new Promise<void>((r) => internal.server.listen(0, '127.0.0.1', r));
  internal.port = (internal.server.address() as AddressInfo).port;
  process.env.LINK_PREVIEW_ALLOW_HOSTS = `127.0.0.1:${pages.port}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-link-preview-'));
  app = await startEmbedded({ port: 0, host: '127.0.0.1', dataDir, logger: createLogger('test', 'silent') });
});
afterAll(async () => {
  if (savedAllow === undefined) delete process.env.LINK_PREVIEW_ALLOW_HOSTS;
  else process.env.LINK_PREVIEW_ALLOW_HOSTS = savedAllow;
  await app?.stop();
  await pages?.close();
  internal?.server.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('link preview route: embedded (npm start)', () => {
  it('answers 401, 400, 422 and 200 as specified', async () => {
    await expectLinkPreviewRoute(app.url, app.url, pages);
  });

  it("serves the previews' images through this origin (signed paths only, images only, SSRF-safe)", async () => {
    await expectImageProxyRoute(app.url, app.url, pages, { port: internal.port, seen: () => internal.seen });
  });

  it('refuses a local address that is not on the allowlist and never contacts it', async () => {
    const { userToken } = await createRoom(app.url);
    const auth = { authorization: `Bearer ${userToken}` };
    // the member's token reaches messaging's read model through the event log: wait for it (401 until then)
    await expect
      .poll(
        async () =>
          (await call(app.url, LINK_PREVIEW_PATH, { body: { url: 'http://10.0.0.1/' }, headers: auth })).status,
        { timeout: 15_000 },
      )
      .toBe(422);
    for (const url of [
      `http://127.0.0.1:${internal.port}/`,
      `http://localhost:${internal.port}/`,
      `http://2130706433:${internal.port}/`,
    ]) {
      const res = await call(app.url, LINK_PREVIEW_PATH, { body: { url }, headers: auth });
      expect(res.status, url).toBe(422);
      expect(res.body, url).toEqual({
        success: false,
        code: 'LINK_PREVIEW_BLOCKED',
        message: 'Only links on the standard web ports (80 and 443) can be previewed',
      });
    }
    for (const url of [
      'http://127.0.0.1/',
      'http://[::1]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
    ]) {
      const res = await call(app.url, LINK_PREVIEW_PATH, { body: { url }, headers: auth });
      expect([res.status, res.body.code], url).toEqual([422, 'LINK_PREVIEW_BLOCKED']);
    }
    expect(internal.seen).toBe(0);
  });

  it('limits each user to 30 previews a minute (429 with the error body); another user is not affected', async () => {
    const { workspaceId, userToken } = await createRoom(app.url);
    const bob = await joinRoom(app.url, workspaceId, 'bob');
    const url = `${pages.origin}/og`;
    const ask = (token: string) =>
      call(app.url, LINK_PREVIEW_PATH, { body: { url }, headers: { authorization: `Bearer ${token}` } });
    // the member's token reaches messaging's read model through the event log: wait for it
    await expect.poll(async () => (await ask(bob.userToken)).status, { timeout: 15_000 }).toBe(200);
    let ok = 1;
    for (; ok < 40; ok++) {
      const res = await ask(bob.userToken);
      if (res.status !== 200) {
        expect(res.status).toBe(429);
        expect(res.body).toEqual({ success: false, code: 'RATE_LIMITED', message: ERRORS.RATE_LIMITED });
        break;
      }
    }
    expect(ok).toBe(30);
    expect((await ask(userToken)).status).toBe(200);
  });

  it('a sent message carries the preview this server fetched for its url, never one the client made up', async () => {
    const room = await createRoom(app.url);
    const { socket } = await socketJoin(app.url, room.workspaceId, room.user.username, room.userToken);
    try {
      const channel = await request(socket, C.createChannel, {
        workspaceId: room.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      if (!channel.success) throw new Error(channel.message);
      const url = `${pages.origin}/og?sent=1`;
      const auth = { authorization: `Bearer ${room.userToken}` };
      await expect
        .poll(async () => (await call(app.url, LINK_PREVIEW_PATH, { body: { url }, headers: auth })).status, {
          timeout: 15_000,
        })
        .toBe(200);
      const forged = {
        url,
        title: 'Forged',
        description: 'made up',
        image: 'https://evil.example/x.png',
        type: 'other',
      };
      const sent = await request(socket, C.sendMessage, {
        clientMessageId: clientId(),
        channelId: channel.channel.id,
        content: `look ${url}`,
        type: 'text',
        linkPreview: forged,
      });
      expect(sent.success).toBe(true);
      if (sent.success)
        expect(sent.message.linkPreview).toMatchObject({
          url,
          title: 'Local page',
          image: proxiedImage(`${pages.origin}/cover.png`),
        });
      const unfetched = await request(socket, C.sendMessage, {
        clientMessageId: clientId(),
        channelId: channel.channel.id,
        content: 'never previewed',
        type: 'text',
        linkPreview: { ...forged, url: `${pages.origin}/never` },
      });
      expect(unfetched.success && unfetched.message.linkPreview).toBe(null);
    } finally {
      socket.disconnect();
    }
  });
});
