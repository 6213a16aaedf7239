/**
 * A call's camera in a real browser, in both modes (docs/product/calls.md C6, C7): Chromium's fake camera
 * captures at the quality the room's plan gives (pro HD 1280x720, business full HD 1920x1080); a refused camera
 * ends the call with the alert asking to check permissions; fullscreen that the browser cannot give says why.
 * The caller's own window is enough for all three: capture happens before the other side answers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { C, type Tier } from '@ephemera/proto';
import { createRoom, joinRoom, request, socketJoin } from '../../test/helpers/clients.ts';
import { CHROMIUM_PATH, FRONTEND_DIST, textOf, uniqueRoomName, User, WAIT_MS } from './browser.ts';
import { MODES, type BrowserTarget } from './targets.ts';

const FAKE_MEDIA = [
  '--use-fake-device-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--autoplay-policy=no-user-gesture-required',
];

for (const [mode, start] of MODES) {
  describe(`browser: a call's camera (${mode})`, () => {
    let target: BrowserTarget;
    let allowing: Browser;
    const users: User[] = [];
    beforeAll(async () => {
      if (!fs.existsSync(path.join(process.env.E2E_FRONTEND_DIST ?? FRONTEND_DIST, 'index.html')))
        throw new Error('build the frontend first (npm run build:frontend)');
      [target, allowing] = await Promise.all([
        start('call-media', { calls: true }),
        chromium.launch({
          executablePath: CHROMIUM_PATH,
          headless: true,
          args: [...FAKE_MEDIA, '--use-fake-ui-for-media-stream'],
        }),
      ]);
    }, 240_000);
    afterAll(async () => {
      for (const u of users) await u.close();
      await allowing?.close().catch(() => {});
      await target?.stop();
    });

    /** alice (owner) in a room of this tier with bob, on their DM, in `browser`. */
    async function aliceOnDm(browser: Browser, tier: Tier, grant: boolean, init?: () => void): Promise<User> {
      const name = uniqueRoomName(`media${tier}`);
      const created = await createRoom(target.urlA, name, 'alice');
      const workspaceId = created.workspaceId as string;
      if (tier !== 'free') await target.changeTier(workspaceId, tier);
      const bob = await joinRoom(target.urlA, workspaceId, 'bob');
      const { socket } = await socketJoin(target.urlA, workspaceId, 'alice', created.userToken);
      const dm = await request(socket, C.createDmChannel, { workspaceId, targetUserId: bob.user.id });
      socket.close();
      if (!dm.success) throw new Error(dm.message);
      const u = await User.open(browser, 'alice', target.urlA, target.cookiesA, target.replicaA);
      users.push(u);
      if (grant) await u.context.grantPermissions(['camera', 'microphone']);
      if (init) await u.page.addInitScript(init);
      await u.enterRoom({ workspaceId, userToken: created.userToken, username: 'alice', roomName: name });
      await u.page.locator(`[data-testid="dm-row"][data-channel-id="${dm.channel.id}"]`).click();
      await u.byTestId('chat-header').waitFor();
      return u;
    }

    const localSize = (u: User) =>
      u.byTestId('call-local-video').evaluate((v: HTMLVideoElement) => ({ w: v.videoWidth, h: v.videoHeight }));

    for (const [tier, size] of [
      ['pro', { w: 1280, h: 720 }],
      ['business', { w: 1920, h: 1080 }],
    ] as const) {
      it(`a ${tier} room's video call captures ${size.w}x${size.h} (docs/product/calls.md C7)`, async () => {
        const alice = await aliceOnDm(allowing, tier, true);
        await alice.byTestId('video-call-button').click();
        await alice.byTestId('call-local-video').waitFor({ timeout: WAIT_MS });
        await expect
          .poll(async () => (await localSize(alice)).w, { timeout: WAIT_MS, message: 'the preview has frames' })
          .toBeGreaterThan(0);
        expect(await localSize(alice)).toEqual(size);
        await alice.byTestId('call-end').click();
      }, 90_000);
    }

    it('a camera the browser refuses: the alert asks to check permissions, and the call is gone', async () => {
      // no automatic "allow" and no permission granted: headless Chromium refuses the camera as a person would
      const refusing = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FAKE_MEDIA });
      try {
        const alice = await aliceOnDm(refusing, 'pro', false);
        const alert = new Promise<string>((resolve) =>
          alice.page.once('dialog', (d) => {
            resolve(d.message());
            d.dismiss().catch(() => {});
          }),
        );
        await alice.byTestId('video-call-button').click();
        expect(await alert).toBe('Failed to access camera/microphone. Please check your permissions and try again.');
        await alice.byTestId('call-window').waitFor({ state: 'detached', timeout: WAIT_MS });
      } finally {
        await refusing.close().catch(() => {});
      }
    }, 90_000);

    it('fullscreen the browser cannot give says why: not supported, or blocked by its settings', async () => {
      // a browser without the Fullscreen API, and one whose settings block it (what the page sees in each case)
      const unsupported = await aliceOnDm(allowing, 'pro', true, () => {
        Object.defineProperty(Element.prototype, 'requestFullscreen', { value: undefined, configurable: true });
      });
      await unsupported.byTestId('video-call-button').click();
      await unsupported.byTestId('call-fullscreen').click();
      expect(await textOf(unsupported.byTestId('call-window').locator('.call-hint'))).toBe(
        'Fullscreen is not supported in this browser',
      );
      await unsupported.byTestId('call-end').click();

      const blocked = await aliceOnDm(allowing, 'pro', true, () => {
        Object.defineProperty(Document.prototype, 'fullscreenEnabled', { get: () => false, configurable: true });
      });
      await blocked.byTestId('video-call-button').click();
      await blocked.byTestId('call-fullscreen').click();
      expect(await textOf(blocked.byTestId('call-window').locator('.call-hint'))).toBe(
        'Fullscreen is blocked by your browser settings or security restrictions',
      );
    }, 90_000);
  });
}
