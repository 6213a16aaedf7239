/**
 * The texts users see when a step fails, each where it happens, in a real browser in both modes with a
 * real SMTP server (Mailpit) for signing in (texts in frontend/src/lib/texts.ts; docs/product/rooms.md R5, R27,
 * files.md F1, accounts.md A7). A failure the running product does not produce on demand (a server error, a lost
 * connection, a refusal from a proxy) is made by the browser's own request routing; everything else is real.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { C } from '@ephemera/proto';
import { startMailpit, type Mailpit } from '../../test/helpers/mailpit.ts';
import { request, socketJoin } from '../../test/helpers/clients.ts';
import { assertFrontendBuilt, launchBrowser, textOf, uniqueRoomName, User, WAIT_MS } from './browser.ts';
import { signInByCode } from './sign-in.ts';
import { MODES, type BrowserTarget } from './targets.ts';

const storedAuth = (u: User) =>
  u.page.evaluate(
    () =>
      JSON.parse(localStorage.getItem('ephemera.auth') ?? 'null') as { workspaceId: string; userToken: string } | null,
  );

for (const [mode, start] of MODES) {
  describe(`browser: failure texts where the failure happens (${mode})`, () => {
    let browser: Browser;
    let target: BrowserTarget;
    let mail: Mailpit;
    const tmpFiles: string[] = [];
    const open = (label: string) => User.open(browser, label, target.urlA, target.cookiesA, target.replicaA);
    beforeAll(async () => {
      assertFrontendBuilt();
      mail = await startMailpit();
      [target, browser] = await Promise.all([
        start('failure-texts', { smtpUrl: mail.smtpUrl, google: null }),
        launchBrowser(),
      ]);
    }, 240_000);
    afterAll(async () => {
      await browser?.close().catch(() => {});
      await target?.stop();
      await mail?.stop();
      for (const f of tmpFiles) fs.rmSync(f, { force: true });
    });

    /** A guest's new room with a channel open in the composer. */
    async function roomWithChannel(u: User): Promise<void> {
      const room = uniqueRoomName('texts');
      await u.goto(`/${room}`);
      await u.page.locator('[data-testid="join-overlay"][data-mode="create"]').waitFor({ timeout: WAIT_MS });
      await u.byTestId('username-input').fill('guest');
      await u.byTestId('overlay-submit').click();
      await u.byTestId('room-view').waitFor({ timeout: WAIT_MS });
      const guest = (await storedAuth(u))!;
      const { socket } = await socketJoin(target.urlA, guest.workspaceId, 'guest', guest.userToken);
      const general = await request(socket, C.createChannel, {
        workspaceId: guest.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      socket.close();
      if (!general.success) throw new Error(general.message);
      await u.page.locator(`[data-testid="channel-row"][data-channel-id="${general.channel.id}"]`).click();
      await u.byTestId('composer-textarea').waitFor({ timeout: WAIT_MS });
    }

    it('the room page cannot ask whether the room exists: "Failed to check room status", and with no connection "Network error while checking room"', async () => {
      const u = await open('visitor');
      try {
        await u.page.route('**/api/workspaces/room/**', (r) =>
          r.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
        );
        await u.goto(`/${uniqueRoomName('check')}`);
        expect(await textOf(u.byTestId('load-error-message'))).toBe('Failed to check room status');
        await u.page.unroute('**/api/workspaces/room/**');
        await u.page.route('**/api/workspaces/room/**', (r) => r.abort('internetdisconnected'));
        await u.goto(`/${uniqueRoomName('check')}`);
        expect(await textOf(u.byTestId('load-error-message'))).toBe('Network error while checking room');
      } finally {
        await u.close();
      }
    }, 60_000);

    it('files: a chosen file deleted before sending says "Failed to read file"; a refusal for size says "Failed to send file. File might be too large."', async () => {
      const u = await open('guest');
      try {
        await roomWithChannel(u);
        const file = path.join(os.tmpdir(), `ephemera-e2e-gone-${Date.now()}.txt`);
        tmpFiles.push(file);
        fs.writeFileSync(file, 'soon gone');
        await u.byTestId('composer-file-input').setInputFiles(file);
        await u.byTestId('upload-start').waitFor({ timeout: WAIT_MS });
        fs.rmSync(file);
        await u.byTestId('upload-start').click();
        expect(await textOf(u.byTestId('upload-error'))).toBe('Failed to read file');
        await u.page.keyboard.press('Escape');
        await u.byTestId('file-upload-modal').waitFor({ state: 'detached' });

        // the server's refusal for size, as a proxy in front of it could also give it
        await u.page.route('**/files', (r) =>
          r.request().method() === 'POST'
            ? r.fulfill({
                status: 413,
                contentType: 'application/json',
                body: JSON.stringify({ code: 'FILE_TOO_LARGE', message: 'Files in this room can be up to 10 MB.' }),
              })
            : r.fallback(),
        );
        await u
          .byTestId('composer-file-input')
          .setInputFiles({ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.from('pretend this is big') });
        await u.byTestId('upload-start').click();
        expect(await textOf(u.byTestId('upload-error'))).toBe(
          'Failed to send file. File might be too large. Files in this room can be up to 10 MB.',
        );
      } finally {
        await u.close();
      }
    }, 90_000);

    it('a profile picture that is not an image inside says "Failed to read image file" and nothing is sent', async () => {
      const u = await open('guest');
      try {
        await roomWithChannel(u);
        let uploads = 0;
        u.page.on('request', (r) => {
          if (r.method() === 'POST' && r.url().includes('/files')) uploads++;
        });
        await u.byTestId('edit-profile-button').click();
        await u
          .byTestId('profile-picture-input')
          .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
        expect(await textOf(u.byTestId('profile-error'))).toBe('Failed to read image file');
        await u.byTestId('profile-save').click();
        await u.byTestId('edit-profile-modal').waitFor({ state: 'detached', timeout: WAIT_MS }); // unchanged: closes, nothing saved
        expect(uploads, 'no picture was uploaded').toBe(0);
      } finally {
        await u.close();
      }
    }, 90_000);

    it('the dashboard: payment status as words (Active); creating or opening a room with no connection says so', async () => {
      const u = await open('member');
      try {
        await signInByCode(u, mail, `texts-${Date.now()}@example.test`, 'Texter', '/dashboard');
        expect(await textOf(u.byTestId('dashboard-payment-status'))).toBe('Active');

        const name = uniqueRoomName('dash');
        await u.byTestId('create-room-name').fill(name);
        await u.page.locator('.availability[data-state="available"]').waitFor({ timeout: WAIT_MS });
        await u.page.route('**/api/workspaces', (r) =>
          r.request().method() === 'POST' ? r.abort('internetdisconnected') : r.fallback(),
        );
        await u.byTestId('create-room-form').locator('button.button-primary').click();
        expect(await textOf(u.byTestId('rooms-error'))).toBe('Failed to create room. Please try again.');
        await u.page.unroute('**/api/workspaces');

        await u.byTestId('create-room-form').locator('button.button-primary').click();
        await u.page.waitForURL((url) => url.pathname === `/${name}`, { timeout: WAIT_MS });
        await u.goto('/dashboard');
        await u.byTestId('room-row').first().waitFor({ timeout: WAIT_MS });
        await u.page.route('**/api/auth/generate-room-token', (r) => r.abort('internetdisconnected'));
        await u.byTestId('room-row').first().getByRole('button', { name: 'Open' }).click();
        expect(await textOf(u.byTestId('rooms-error'))).toBe('Failed to get room info');
      } finally {
        await u.close();
      }
    }, 120_000);
  });
}
