/**
 * The finish of the room page as a user sees it (embedded mode; none of this crosses a replica): the composer's
 * attach and record buttons are SVG icons with names (no emoji glyphs, which show as empty boxes without an emoji
 * font); recording a voice message shows Recording and its running time on one line on a phone, and Cancel discards
 * while Send sends (docs/product/files.md F8); on a phone (375 px, touch) a message's actions stay hidden until its
 * bubble is tapped, as chat apps do, and stay reachable by keyboard and screen reader; a voice message's duration
 * does not wrap there; own bubbles (links, file size, times) and a dialog's link button pass axe's colour-contrast
 * check in every theme. Chromium's fake microphone (--use-fake-device-for-media-stream, --use-fake-ui-for-media-stream).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import axe from 'axe-core';
import { C, THEME_IDS, type Tier } from '@ephemera/proto';
import { createLogger } from '@ephemera/platform';
import { clientId, createRoom, joinRoom, request, socketJoin } from '../../test/helpers/clients.ts';
import { startEmbedded } from '../../services/embedded/app.ts';
import { openSettings, rootTheme } from './admin.helpers.ts';
import { CHROMIUM_PATH, FRONTEND_DIST, expectText, uniqueRoomName, User, WAIT_MS } from './browser.ts';

const DIST = process.env.E2E_FRONTEND_DIST ?? FRONTEND_DIST;

/** axe-core's contrast math for text drawn at an opacity (axe leaves the times inside bubbles undecided). */
function timeContrast(fg: string, bg: string, opacity: number): number {
  type Color = { alpha: number; parseString(s: string): void };
  const api = (
    axe as unknown as {
      commons: {
        color: {
          Color: new () => Color;
          getContrast(b: Color, f: Color): number;
          flattenColors(f: Color, b: Color): Color;
        };
      };
    }
  ).commons.color;
  const f = new api.Color();
  f.parseString(fg);
  f.alpha *= opacity;
  const b = new api.Color();
  b.parseString(bg);
  return api.getContrast(b, api.flattenColors(f, b));
}
const ARGS = [
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

describe("browser: the room page's finish (icons, voice recording, phone actions, contrast)", () => {
  let app: Awaited<ReturnType<typeof startEmbedded>> | undefined;
  let dataDir = '';
  let browser: Browser | undefined;
  const users: User[] = [];

  /** alice (the owner) and bob in a fresh room's #general; phone: who opens it on a 375 px touch screen */
  async function room(phone: { alice?: boolean; bob?: boolean } = {}, tier?: Tier) {
    const base = app!.url;
    const name = uniqueRoomName('edges');
    const created = await createRoom(base, name, 'alice');
    const workspaceId = created.workspaceId as string;
    const joined = await joinRoom(base, workspaceId, 'bob');
    const { socket } = await socketJoin(base, workspaceId, 'alice', created.userToken);
    const general = await request(socket, C.createChannel, {
      workspaceId,
      name: 'general',
      type: 'topic',
      isPrivate: false,
    });
    socket.close();
    if (!general.success) throw new Error(general.message);
    if (tier) await app!.rooms.changeTier({ workspaceId, tier, reason: 'browser test' });
    const open = async (username: string, token: string, onPhone: boolean) => {
      const u = await User.open(browser!, username, base, [], undefined, onPhone);
      users.push(u);
      await u.context.grantPermissions(['microphone']);
      await u.enterRoom({ workspaceId, userToken: token, username, roomName: name });
      const row = u.page.locator(`[data-testid="channel-row"][data-channel-id="${general.channel.id}"]`);
      await (onPhone ? row.tap() : row.click());
      await u.byTestId('composer-textarea').waitFor();
      return u;
    };
    return {
      alice: await open('alice', created.userToken, !!phone.alice),
      bob: await open('bob', joined.userToken, !!phone.bob),
      workspaceId,
      channelId: general.channel.id as string,
      aliceToken: created.userToken as string,
    };
  }

  const record = async (u: User, ms: number) => {
    await u.byTestId('voice-record').click();
    await u.byTestId('voice-recording').waitFor();
    await u.page.waitForTimeout(ms);
  };

  beforeAll(async () => {
    if (!fs.existsSync(path.join(DIST, 'index.html')))
      throw new Error(`${DIST}/index.html is missing: build the frontend first (npm run build:frontend)`);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-edges-'));
    [app, browser] = await Promise.all([
      startEmbedded({
        port: 0,
        host: '127.0.0.1',
        dataDir,
        logger: createLogger('e2e-edges', 'silent'),
        frontendDist: DIST,
      }),
      chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS }),
    ]);
  }, 240_000);
  afterAll(async () => {
    for (const u of users) await u.close();
    await browser?.close().catch(() => {});
    await app?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("the composer's attach and record buttons are SVG icons with accessible names, no emoji glyphs", async () => {
    const { alice } = await room();
    for (const [id, name] of [
      ['composer-attach', 'Attach a file'],
      ['voice-record', 'Record a voice message'],
    ] as const) {
      const button = alice.page.getByRole('button', { name, exact: true });
      expect(await button.getAttribute('data-testid'), name).toBe(id);
      expect(await button.locator('svg').count(), `${name}: an SVG icon`).toBe(1);
      expect((await button.textContent())?.trim(), `${name}: no text glyph`).toBe('');
    }
  });

  it('recording on a phone: Recording and the running time on one line; Cancel discards, Send sends (docs/product/files.md F8)', async () => {
    const { alice, bob } = await room({ alice: true });
    await bob.send('hello from bob');
    await alice.waitForMessages(['hello from bob']);

    await record(alice, 1_300);
    await expectText(
      alice.page.getByRole('status').filter({ hasText: 'Recording' }),
      'Recording',
      'the recording indicator',
    );
    const elapsed = alice.byTestId('voice-elapsed');
    await expectText(elapsed, /^0:0[1-9]$/, 'the running time');
    const box = (await elapsed.boundingBox())!;
    const fontSize = await elapsed.evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    expect(box.height, 'the time on one line').toBeLessThan(fontSize * 2);
    expect(box.x + box.width, 'the time within the 375 px screen').toBeLessThanOrEqual(375);
    await alice.page.getByRole('button', { name: 'Cancel recording' }).tap();
    await alice.byTestId('voice-record').waitFor();
    expect(await alice.byTestId('voice-recording').count(), 'the bar is gone').toBe(0);
    expect(await alice.byTestId('composer-textarea').isVisible(), 'the text field is back').toBe(true);

    // sent after the cancelled one: when it reaches bob, a cancelled recording would have arrived before it
    await record(alice, 1_300);
    await alice.page.getByRole('button', { name: 'Stop recording and send' }).tap();
    await bob.byTestId('attachment-voice').waitFor({ timeout: WAIT_MS });
    await bob.page.waitForTimeout(500);
    expect(await bob.byTestId('attachment-voice').count(), 'only the sent recording reached bob').toBe(1);
    await alice.byTestId('attachment-voice').waitFor({ timeout: WAIT_MS });
    expect(await alice.byTestId('attachment-voice').count(), 'and alice').toBe(1);
  });

  it("on a phone a voice message's duration stays on one line; a message's actions show on a tap on its bubble, not before, and keyboard and screen reader still reach them (docs/product/messages.md M7)", async () => {
    const { alice, bob } = await room({ alice: true });
    expect(await alice.page.evaluate(() => matchMedia('(hover: none)').matches), 'the phone has no hover').toBe(true);
    await bob.send('tap me');
    await bob.byTestId('voice-record').click();
    await bob.byTestId('voice-stop').waitFor();
    await bob.page.waitForTimeout(1_300);
    await bob.byTestId('voice-stop').click();
    await alice.byTestId('attachment-voice').waitFor({ timeout: WAIT_MS });
    const duration = alice.byTestId('voice-duration');
    await expectText(duration, /^0:0[1-3]$/, 'the duration');
    const lines = await duration.evaluate((e) => {
      const r = document.createRange();
      r.selectNodeContents(e);
      return new Set([...r.getClientRects()].map((c) => Math.round(c.top))).size;
    });
    expect.soft(lines, 'the duration on one line').toBe(1);

    const message = alice.byTestId('message-item').filter({ hasText: 'tap me' });
    const actions = message.getByTestId('message-actions');
    const opacity = () => actions.evaluate((e) => getComputedStyle(e).opacity);
    await expect.poll(opacity, { timeout: WAIT_MS, message: 'hidden before a tap' }).toBe('0');
    // in the accessibility tree all along: a screen reader finds the toolbar and its buttons
    expect(await message.getByRole('toolbar', { name: 'Message actions' }).count()).toBe(1);
    expect(await message.getByRole('button', { name: 'Add reaction' }).count()).toBe(1);

    await message.locator('.bubble').tap();
    await expect.poll(opacity, { timeout: WAIT_MS, message: 'shown after a tap on the bubble' }).toBe('1');
    await message.getByRole('button', { name: 'Add reaction' }).tap();
    await alice.byTestId('reaction-popover').waitFor();
    await alice.page.keyboard.press('Escape');
    await alice.byTestId('reaction-popover').waitFor({ state: 'detached' });
    await alice.byTestId('chat-header').tap();
    await expect.poll(opacity, { timeout: WAIT_MS, message: 'hidden again after a tap elsewhere' }).toBe('0');

    await message.getByRole('button', { name: 'Add reaction' }).focus();
    await expect.poll(opacity, { timeout: WAIT_MS, message: 'shown to the keyboard' }).toBe('1');
  });

  it("own bubbles and link buttons pass axe's colour contrast in every theme: text, links, file size, times (docs/product/rooms.md R31)", async () => {
    const { alice } = await room({}, 'business');
    await alice.send('see https://example.com/guide for details');
    await alice
      .byTestId('composer-file-input')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('meeting notes\n'.repeat(200)) });
    await alice.byTestId('upload-start').click();
    await alice.byTestId('attachment-file').waitFor({ timeout: WAIT_MS });
    const contrast = async (where = '[data-testid="message-list"]') => {
      await alice.page.waitForTimeout(400); // colour transitions end
      const r = await new AxeBuilder({ page: alice.page }).include(where).withRules(['color-contrast']).analyze();
      return r.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.any[0]?.message ?? v.help}`));
    };
    const found: Record<string, string[]> = {};
    // every theme but custom, whose colours are the room's own (its defaults are in themeContrast.test.ts). axe leaves
    // the times inside bubbles undecided (overlapped by the message's row): the own bubble's is computed below
    for (const id of THEME_IDS.filter((t) => t !== 'custom')) {
      await openSettings(alice);
      await alice.byTestId('settings-change-theme').click();
      await alice.byTestId('theme-modal').locator(`[data-theme-id="${id}"]`).click();
      await alice.byTestId('theme-apply').click();
      await alice.byTestId('theme-modal').waitFor({ state: 'detached' });
      await expect.poll(() => rootTheme(alice), { timeout: WAIT_MS }).toBe(id);
      await alice.page.keyboard.press('Escape');
      await alice.byTestId('settings-panel').waitFor({ state: 'detached' });
      found[id] = await contrast();
      // the time in alice's own bubble, as drawn: its colour at its opacity over the bubble's colour
      const time = await alice.page
        .locator('.message.own .bubble-foot')
        .last()
        .evaluate((foot) => ({
          color: getComputedStyle(foot).color,
          opacity: Number(getComputedStyle(foot).opacity),
          bg: getComputedStyle(foot.closest('.bubble')!).backgroundColor,
        }));
      const ratio = timeContrast(time.color, time.bg, time.opacity);
      if (ratio < 4.5)
        found[id].push(`own bubble time: ${ratio.toFixed(2)}:1 (${time.color} at ${time.opacity} on ${time.bg})`);
      // a link button (.link-button) on a dialog's card: Set Password's "Remove the password instead"
      await openSettings(alice);
      await alice.byTestId('settings-password').click();
      await alice.byTestId('password-mode-toggle').waitFor({ timeout: WAIT_MS });
      found[id].push(...(await contrast('[data-testid="password-mode-toggle"]')));
      await alice.page.keyboard.press('Escape');
      await alice.byTestId('password-mode-toggle').waitFor({ state: 'detached', timeout: WAIT_MS });
    }
    expect(found).toEqual(Object.fromEntries(THEME_IDS.filter((t) => t !== 'custom').map((t) => [t, []])));
    // ten themes, two axe scans each: about 60 s on a quiet machine, so more than the file's default
  }, 180_000);

  it("the back-to-top button covers no message's time, at the bottom or scrolled up (docs/product/messages.md M7)", async () => {
    const { alice, workspaceId, channelId, aliceToken } = await room();
    const { socket } = await socketJoin(app!.url, workspaceId, 'alice', aliceToken);
    for (let i = 1; i <= 30; i++) {
      const sent = await request(socket, C.sendMessage, {
        clientMessageId: clientId(),
        channelId,
        content: `message ${i}\nsecond line`,
        type: 'text',
      });
      if (!sent.success) throw new Error(sent.message);
    }
    socket.close();
    const last = alice.byTestId('message-item').filter({ hasText: 'message 30' });
    await last.waitFor({ timeout: WAIT_MS });
    await alice.byTestId('message-list').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await alice.byTestId('back-to-top').waitFor({ timeout: WAIT_MS });
    await alice.page.waitForTimeout(300);
    // at the bottom, and at every step of 40 px up the list: no time of a message is under the button (desktop, phone width)
    const coveredAt = () =>
      alice.page.evaluate(async () => {
        const list = document.querySelector<HTMLElement>('[data-testid="message-list"]')!;
        const found: string[] = [];
        for (let up = 0; up <= 400; up += 40) {
          list.scrollTop = list.scrollHeight - list.clientHeight - up;
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          const button = document.querySelector('[data-testid="back-to-top"]')?.getBoundingClientRect();
          if (!button) continue;
          for (const time of document.querySelectorAll('[data-testid="message-time"]')) {
            const t = time.getBoundingClientRect();
            const area =
              Math.max(0, Math.min(button.right, t.right) - Math.max(button.left, t.left)) *
              Math.max(0, Math.min(button.bottom, t.bottom) - Math.max(button.top, t.top));
            if (area > 0)
              found.push(`${up} px up: ${time.closest('[data-testid="message-item"]')?.textContent?.slice(0, 20)}`);
          }
        }
        return found;
      });
    expect(await coveredAt(), 'times under the back-to-top button at 1280 px').toEqual([]);
    await alice.page.setViewportSize({ width: 375, height: 740 });
    await alice.byTestId('back-to-top').waitFor({ timeout: WAIT_MS });
    expect(await coveredAt(), 'times under the back-to-top button at 375 px').toEqual([]);
  });
});
