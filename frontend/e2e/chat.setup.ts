/**
 * Setup and helpers of the chat browser tests (chat.e2e.test.ts): embedded mode with the link-preview allowlist
 * set to a local page with Open Graph tags, a room with #general created over the API, and two people whose
 * browsers start from the stored auth record (as after a join).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { C } from '@ephemera/proto';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../../services/embedded/app.ts';
import { createRoom, joinRoom, request, socketJoin } from '../../test/helpers/clients.ts';
import { assertFrontendBuilt, launchBrowser, uniqueRoomName, User, WAIT_MS } from './browser.ts';

/** A page with Open Graph tags; its title tries markup, which must show as text. */
export const OG_TITLE = 'Local <img src=x onerror=alert(7)> article';
export const OG_DESCRIPTION = 'A page served by the test, previewed through the server.';
function ogPage(): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!doctype html><html><head><title>fallback</title>
<meta property="og:title" content="${esc(OG_TITLE)}">
<meta property="og:description" content="${esc(OG_DESCRIPTION)}">
<meta property="og:site_name" content="Test Site">
<meta property="og:image" content="/cover.png">
</head><body>hello</body></html>`;
}

/** The page's og:image (a 1x1 PNG): the browser gets it only through our origin's image proxy. */
const COVER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** The message row whose own text (not a quote) is exactly `text`. */
export const messageRow = (u: User, text: string): Locator =>
  u.page.locator('[data-testid="message-item"]').filter({
    has: u.page.locator('[data-testid="message-content"]', {
      hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    }),
  });

export async function openMenu(u: User, row: Locator): Promise<void> {
  await row.hover();
  await row.getByTestId('message-menu-button').click();
  await u.page.getByTestId('message-menu').waitFor({ timeout: WAIT_MS });
}

export async function menuItems(u: User): Promise<string[]> {
  const items = await u.page.getByTestId('message-menu').getByRole('menuitem').allTextContents();
  await u.page.keyboard.press('Escape');
  await u.page.getByTestId('message-menu').waitFor({ state: 'detached', timeout: WAIT_MS });
  return items.map((s) => s.trim());
}

export async function react(u: User, row: Locator, emoji: string): Promise<void> {
  await row.hover();
  await row.getByTestId('react-button').click();
  await u.page.getByTestId('reaction-popover').locator(`[data-testid="quick-reaction"][data-emoji="${emoji}"]`).click();
  await u.page.getByTestId('reaction-popover').waitFor({ state: 'detached', timeout: WAIT_MS });
}

/** The chips of a message as "emoji count[*]" (* = mine). */
async function chips(row: Locator): Promise<string[]> {
  return row
    .getByTestId('reaction-chip')
    .evaluateAll((els) =>
      els.map(
        (e) =>
          `${e.getAttribute('data-emoji')} ${e.getAttribute('data-count')}${e.getAttribute('data-mine') === 'true' ? '*' : ''}`,
      ),
    );
}

export const pollChips = (row: Locator, expected: string[], what: string) =>
  expect.poll(() => chips(row), { timeout: WAIT_MS, interval: 100, message: what }).toEqual(expected);

export interface ChatTarget {
  alice: User;
  bob: User;
  /** host:port of the local Open Graph page (/article) */
  pageHost: string;
  /** for messages sent outside the browsers (bob's second connection) */
  api: { base: string; workspaceId: string; bobToken: string };
  stop(): Promise<void>;
}

export async function startChatTarget(): Promise<ChatTarget> {
  assertFrontendBuilt();
  const page = http.createServer((req, res) => {
    if (req.url === '/cover.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(COVER_PNG);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.url === '/article' ? ogPage() : '<!doctype html><title>other</title>');
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  const pageHost = `127.0.0.1:${(page.address() as AddressInfo).port}`;
  // the test-only allowlist: the preview fetcher may reach this one local page
  process.env.LINK_PREVIEW_ALLOW_HOSTS = pageHost;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-chat-'));
  let app: Awaited<ReturnType<typeof startEmbedded>> | undefined;
  let browser: Browser | undefined;
  const users: User[] = [];
  const stop = async () => {
    for (const u of users) await u.close();
    await browser?.close().catch(() => {});
    await app?.stop();
    await new Promise((r) => page.close(r));
    fs.rmSync(dataDir, { recursive: true, force: true });
    delete process.env.LINK_PREVIEW_ALLOW_HOSTS;
  };
  try {
    [app, browser] = await Promise.all([
      // E2E_FRONTEND_DIST: another build to serve (e.g. the previous commit's, to see a new test fail without its change)
      startEmbedded({
        port: 0,
        host: '127.0.0.1',
        dataDir,
        logger: createLogger('e2e-chat', 'silent'),
        frontendDist: process.env.E2E_FRONTEND_DIST,
      }),
      launchBrowser(),
    ]);
    const base = app.url;
    const roomName = uniqueRoomName('chat');
    const created = await createRoom(base, roomName, 'alice');
    const workspaceId = created.workspaceId;
    const { socket } = await socketJoin(base, workspaceId, 'alice', created.userToken);
    const ch = await request(socket, C.createChannel, {
      workspaceId,
      name: 'general',
      type: 'topic',
      isPrivate: false,
    });
    socket.close();
    if (!ch.success) throw new Error(`create-channel: ${ch.message}`);
    const joined = await joinRoom(base, workspaceId, 'bob');

    const open = async (username: string, userToken: string) => {
      const u = await User.open(browser!, username, base);
      users.push(u);
      await u.enterRoom({ workspaceId, userToken, username, roomName });
      await u.page.locator('[data-testid="channel-title"]', { hasText: '# general' }).waitFor({ timeout: WAIT_MS });
      return u;
    };
    const alice = await open('alice', created.userToken);
    const bob = await open('bob', joined.userToken);
    return { alice, bob, pageHost, api: { base, workspaceId, bobToken: joined.userToken }, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
