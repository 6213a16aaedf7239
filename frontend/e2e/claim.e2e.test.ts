/**
 * The claim journey in a real browser, as a new user takes it: a guest creates a room, uploads a picture, opens
 * Settings and registers to keep the room in Claim Your Room (the sign-in code read from a real SMTP server, Mailpit). The claim gives
 * the owner a new room token; afterwards the owner is back in the room (not on the join form), still sees the picture
 * and can upload another file. A second tab that had the room open all along reconnects with the new token too.
 * Embedded mode, and distributed mode (files in S3 on versitygw, billing its own server, behind the nginx ingress).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, WebSocketRoute } from 'playwright-core';
import sharp from 'sharp';
import { C } from '@ephemera/proto';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../../services/embedded/app.ts';
import { startDistributedStack } from '../../test/distributed/stack.ts';
import { startVersitygw } from '../../test/helpers/versitygw.ts';
import { startMailpit, type Mailpit } from '../../test/helpers/mailpit.ts';
import { request, socketJoin } from '../../test/helpers/clients.ts';
import { startIngress } from '../../deploy/local/ingress.ts';
import { freePort } from '../../deploy/local/infra.ts';
import { assertFrontendBuilt, launchBrowser, textOf, uniqueRoomName, User, WAIT_MS } from './browser.ts';
import { claimInDialog } from './claim-dialog.ts';

interface ClaimTarget {
  base: string;
  stop(): Promise<void>;
}

async function embedded(mail: Mailpit): Promise<ClaimTarget> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-claim-'));
  const app = await startEmbedded({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    logger: createLogger('e2e-claim', 'silent'),
    smtpUrl: mail.smtpUrl,
    google: null,
  });
  return {
    base: app.url,
    stop: async () => {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function distributed(mail: Mailpit): Promise<ClaimTarget> {
  const s3 = await startVersitygw();
  const billingPort = await freePort();
  const stack = await startDistributedStack({
    s3,
    accounts: { port: billingPort, smtpUrl: mail.smtpUrl, superadminEmail: 'root@example.test' },
  });
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-claim-ingress-'));
  const ingress = await startIngress({
    runDir,
    port: await freePort(),
    gateway1Port: stack.gateway1Port,
    gateway2Port: stack.gateway2Port,
    roomPort: stack.roomPort,
    messagingPort: stack.messagingPort,
    billingPort,
  });
  return {
    base: ingress.url,
    stop: async () => {
      await ingress.stop();
      await stack.stop();
      await s3.stop();
      fs.rmSync(runDir, { recursive: true, force: true });
    },
  };
}

const storedAuth = (u: User) =>
  u.page.evaluate(
    () =>
      JSON.parse(localStorage.getItem('ephemera.auth') ?? 'null') as { workspaceId: string; userToken: string } | null,
  );

function claimJourney(label: string, start: (mail: Mailpit) => Promise<ClaimTarget>) {
  describe(`browser: the claim journey (${label})`, () => {
    let browser: Browser | undefined;
    let mail: Mailpit | undefined;
    let target: ClaimTarget | undefined;
    beforeAll(async () => {
      assertFrontendBuilt();
      mail = await startMailpit();
      [target, browser] = await Promise.all([start(mail), launchBrowser()]);
    }, 240_000);
    afterAll(async () => {
      await browser?.close().catch(() => {});
      await target?.stop();
      await mail?.stop();
    });

    it('after registering to keep the room, the owner stays in it, sees their picture and uploads another file', async () => {
      const u = await User.open(browser!, 'guest', target!.base);
      try {
        const room = uniqueRoomName('claim');
        await u.goto(`/${room}`);
        await u.page.locator('[data-testid="join-overlay"][data-mode="create"]').waitFor({ timeout: WAIT_MS });
        await u.byTestId('username-input').fill('guest');
        await u.byTestId('overlay-submit').click();
        await u.byTestId('room-view').waitFor({ timeout: WAIT_MS });
        const guest = (await storedAuth(u))!;
        // a channel to post in (the room starts with none), made with the guest's own token
        const { socket } = await socketJoin(target!.base, guest.workspaceId, 'guest', guest.userToken);
        const general = await request(socket, C.createChannel, {
          workspaceId: guest.workspaceId,
          name: 'general',
          type: 'topic',
          isPrivate: false,
        });
        socket.close();
        if (!general.success) throw new Error(general.message);
        const channelRow = u.page.locator(`[data-testid="channel-row"][data-channel-id="${general.channel.id}"]`);
        await channelRow.click();
        await u.byTestId('composer-textarea').waitFor();
        // a second tab with the room open, whose realtime connection the test can cut later
        const tab2 = await u.context.newPage();
        const sockets: WebSocketRoute[] = [];
        await tab2.routeWebSocket(/\/socket\.io\//, (ws) => {
          sockets.push(ws);
          ws.connectToServer();
        });
        await tab2.goto(new URL(`/${room}`, target!.base).toString(), { waitUntil: 'domcontentloaded' });
        await tab2.getByTestId('room-view').waitFor({ timeout: WAIT_MS });
        await expect
          .poll(() => sockets.length, { timeout: WAIT_MS, message: 'the second tab upgraded to a websocket' })
          .toBeGreaterThan(0);

        const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
          .png()
          .toBuffer();
        await u
          .byTestId('composer-file-input')
          .setInputFiles({ name: 'before.png', mimeType: 'image/png', buffer: png });
        await u.byTestId('upload-start').click();
        await u.byTestId('file-upload-modal').waitFor({ state: 'detached' });
        const image = u.byTestId('attachment-image').locator('img');
        await expect
          .poll(() => image.evaluate((i: HTMLImageElement) => i.naturalWidth), {
            timeout: WAIT_MS,
            message: 'the guest sees the picture',
          })
          .toBe(64);

        // Settings -> Register to Keep Your Room -> Claim Your Room, inside the room (docs/product/accounts.md A9)
        await u.byTestId('settings-button').click();
        await u.byTestId('register-banner').getByRole('button', { name: 'Register' }).click();
        await claimInDialog(u, mail!, `claim-${Date.now()}@example.test`, 'Owner');
        expect(await textOf(u.byTestId('claim-outcome'))).toBe('Registration successful! Room ownership claimed.');
        expect(new URL(u.page.url()).pathname, 'the owner never left the room').toBe(`/${room}`);
        await u.byTestId('claim-done').click();
        await u.byTestId('claim-modal').waitFor({ state: 'detached' });

        await u.byTestId('room-view').waitFor({ timeout: WAIT_MS });
        expect(await u.byTestId('join-overlay').count(), 'the owner is not sent to the join form').toBe(0);
        const owner = (await storedAuth(u))!;
        expect(owner.workspaceId).toBe(guest.workspaceId);
        expect(owner.userToken, 'the guest token was replaced by the owner token').not.toBe(guest.userToken);

        await channelRow.click();
        await expect
          .poll(() => image.evaluate((i: HTMLImageElement) => i.naturalWidth), {
            timeout: WAIT_MS,
            message: 'the owner still sees the picture',
          })
          .toBe(64);
        await u.byTestId('composer-file-input').setInputFiles({
          name: 'after.txt',
          mimeType: 'text/plain',
          buffer: Buffer.from('uploaded after the claim'),
        });
        await u.byTestId('upload-start').click();
        await u.byTestId('file-upload-modal').waitFor({ state: 'detached' });
        await u.byTestId('attachment-file').filter({ hasText: 'after.txt' }).waitFor({ timeout: WAIT_MS });
        expect(await u.byTestId('attachment-gone').count(), 'no file shows "no longer available"').toBe(0);
        expect(u.pageErrors).toEqual([]);

        // The second tab joined with the guest token: the server ended that session when the token was replaced
        // (session-replaced), and the tab joined again on the same connection with the token the first tab stored;
        // a message it sends arrives, and the stored token is not cleared.
        const before = sockets.length;
        await tab2.locator(`[data-testid="channel-row"][data-channel-id="${general.channel.id}"]`).click();
        const box = tab2.getByTestId('composer-textarea');
        await box.fill('back after the claim');
        await box.press('Enter');
        await u.byTestId('message-content').filter({ hasText: 'back after the claim' }).waitFor({ timeout: WAIT_MS });
        expect(await tab2.getByTestId('room-view').count(), 'the second tab is still in the room').toBe(1);
        expect(sockets.length, 'on the same connection').toBe(before);
        expect((await storedAuth(u))?.userToken, 'the owner token is still stored').toBe(owner.userToken);
      } finally {
        await u.close();
      }
    }, 120_000);
  });
}

claimJourney('embedded', embedded);
claimJourney('distributed', distributed);
