/**
 * Removed from a room, on every page the member has open (docs/product/admin.md ADM13, rooms.md R22), in both modes:
 * bob is kicked while he reads a DM (the room's own modal, Removed from Chat Room), while another tab of his shows
 * a page outside the room (the app-wide dialog: Removed from Workspace, the reason, Go to Home Page, home after
 * 5 s), and while a third tab of the room has lost its connection (a background tab): when it reconnects, the
 * server's refusal shows the same modal, not a failed join.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, WebSocketRoute } from 'playwright-core';
import { C } from '@ephemera/proto';
import { createRoom, joinRoom, request, socketJoin } from '../../test/helpers/clients.ts';
import { assertFrontendBuilt, launchBrowser, textOf, uniqueRoomName, User, WAIT_MS } from './browser.ts';
import { MODES, type BrowserTarget } from './targets.ts';

for (const [mode, start] of MODES) {
  describe(`browser: removed from a room, on every open page (${mode})`, () => {
    let browser: Browser;
    let target: BrowserTarget;
    beforeAll(async () => {
      assertFrontendBuilt();
      [target, browser] = await Promise.all([start('removed'), launchBrowser()]);
    }, 240_000);
    afterAll(async () => {
      await browser?.close().catch(() => {});
      await target?.stop();
    });

    it('kicked while on a DM, with another page open and a room tab offline: every page says so', async () => {
      const base = target.urlB;
      const name = uniqueRoomName('removed');
      const created = await createRoom(base, name, 'alice');
      const workspaceId = created.workspaceId as string;
      const bob = await joinRoom(base, workspaceId, 'bob');
      const { socket } = await socketJoin(target.urlA, workspaceId, 'alice', created.userToken);
      const u = await User.open(browser, 'bob', base, target.cookiesB, target.replicaB);
      try {
        const dm = await request(socket, C.createDmChannel, { workspaceId, targetUserId: bob.user.id });
        if (!dm.success) throw new Error(dm.message);
        await u.enterRoom({ workspaceId, userToken: bob.userToken, username: 'bob', roomName: name });
        await u.page.locator(`[data-testid="dm-row"][data-channel-id="${dm.channel.id}"]`).click();
        await u.byTestId('chat-header').waitFor({ timeout: WAIT_MS });

        // a tab of the room whose connection the test cuts and holds down (as a background tab loses it)
        const away = await u.context.newPage();
        let down = false;
        const sockets: WebSocketRoute[] = [];
        await away.routeWebSocket(/\/socket\.io\//, (ws) => {
          if (down) return void ws.close();
          sockets.push(ws);
          ws.connectToServer();
        });
        await away.route('**/socket.io/**', (r) => (down ? r.abort('internetdisconnected') : r.fallback()));
        await away.goto(new URL(`/${name}`, base).toString(), { waitUntil: 'domcontentloaded' });
        await away.getByTestId('room-view').waitFor({ timeout: WAIT_MS });
        await expect.poll(() => sockets.length, { timeout: WAIT_MS, message: 'the tab upgraded' }).toBeGreaterThan(0);
        down = true;
        // bounded: a route whose socket the page already dropped may never settle its close
        for (const ws of sockets) await Promise.race([ws.close(), new Promise((r) => setTimeout(r, 5_000))]);

        // a page outside the room, in a tab of its own
        const other = await u.context.newPage();
        await other.goto(new URL('/about', base).toString(), { waitUntil: 'domcontentloaded' });
        await other.getByRole('heading').first().waitFor({ timeout: WAIT_MS });

        const kicked = await request(socket, C.kickUser, { workspaceId, userId: bob.user.id });
        expect(kicked.success).toBe(true);

        // the DM's page: the room's own modal with the reason
        await u.byTestId('kicked-modal').waitFor({ timeout: WAIT_MS });
        expect(await textOf(u.page.getByRole('dialog').getByRole('heading').first())).toBe('Removed from Chat Room');
        const reason = await textOf(u.byTestId('kicked-modal').locator('p').first());
        expect(reason.length, 'a reason is shown').toBeGreaterThan(0);

        // the page outside the room: the app-wide dialog, the same reason, Go to Home Page
        const dialog = other.getByTestId('removed-dialog');
        await dialog.waitFor({ timeout: WAIT_MS });
        expect(await textOf(other.getByRole('dialog').getByRole('heading').first())).toBe('Removed from Workspace');
        expect(await textOf(dialog.locator('p').first())).toBe(reason);
        expect(await textOf(dialog)).toContain(
          'You can rejoin with the invitation link unless you were permanently banned.',
        );

        // the tab that was away comes back: the server refuses its rejoin, and it shows the removal too
        down = false;
        await away.getByTestId('kicked-modal').waitFor({ timeout: 30_000 });
        expect(await away.getByTestId('join-error-view').count(), 'not a failed join').toBe(0);

        const clickedAt = Date.now();
        await dialog.getByRole('button', { name: 'Go to Home Page' }).click();
        await other.waitForURL((url) => url.pathname === '/', { timeout: WAIT_MS });
        expect(Date.now() - clickedAt, 'home at once on the button, not after the 5 s').toBeLessThan(4_000);
        expect(u.pageErrors).toEqual([]);
      } finally {
        socket.close();
        await Promise.race([u.close(), new Promise((r) => setTimeout(r, 15_000))]);
      }
      // three pages and a held-down reconnect: under a loaded CI machine the steps' waits add up past 2 minutes
    }, 200_000);

    it('the app-wide dialog goes home by itself after 5 s', async () => {
      const base = target.urlB;
      const name = uniqueRoomName('removed5');
      const created = await createRoom(base, name, 'alice');
      const workspaceId = created.workspaceId as string;
      const bob = await joinRoom(base, workspaceId, 'bob');
      const { socket } = await socketJoin(target.urlA, workspaceId, 'alice', created.userToken);
      const u = await User.open(browser, 'bob', base, target.cookiesB, target.replicaB);
      try {
        await u.enterRoom({ workspaceId, userToken: bob.userToken, username: 'bob', roomName: name });
        const other = await u.context.newPage();
        await other.goto(new URL('/features', base).toString(), { waitUntil: 'domcontentloaded' });
        await other.getByRole('heading').first().waitFor({ timeout: WAIT_MS });
        await request(socket, C.kickUser, { workspaceId, userId: bob.user.id });
        await other.getByTestId('removed-dialog').waitFor({ timeout: WAIT_MS });
        const shownAt = Date.now();
        await other.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
        const after = Date.now() - shownAt;
        expect(after, 'not before 5 s').toBeGreaterThanOrEqual(4_500);
      } finally {
        socket.close();
        await u.close();
      }
    }, 90_000);
  });
}
