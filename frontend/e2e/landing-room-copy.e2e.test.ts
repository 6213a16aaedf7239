/**
 * What users read on the landing page and in the room's small pieces, in a real browser against embedded mode
 * (docs/product/rooms.md R3, R18; messages.md M1): the four feature cards, the six FAQ questions (an accordion), the lifetime
 * sentence and cards; the invite card's Copy link, "✓ Copied!" for 2 s and "Failed to copy link"; the message
 * counter that shows only above 1,800 characters.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { C } from '@ephemera/proto';
import { createLogger } from '@ephemera/platform';
import { startEmbedded, type EmbeddedApp } from '../../services/embedded/app.ts';
import { request, socketJoin } from '../../test/helpers/clients.ts';
import { assertFrontendBuilt, launchBrowser, textOf, uniqueRoomName, User, WAIT_MS } from './browser.ts';

describe("browser: the landing page's texts, the invite card and the message counter (embedded)", () => {
  let browser: Browser;
  let app: EmbeddedApp;
  let dataDir: string;
  beforeAll(async () => {
    assertFrontendBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-landing-copy-'));
    [app, browser] = await Promise.all([
      startEmbedded({
        port: 0,
        host: '127.0.0.1',
        dataDir,
        logger: createLogger('e2e-landing-copy', 'silent'),
        google: null,
      }),
      launchBrowser(),
    ]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('the landing page: four feature cards, how long rooms last, and six FAQ questions that open one at a time', async () => {
    const u = await User.open(browser, 'visitor', app.url);
    try {
      await u.goto('/');
      await u.byTestId('feature-card').first().waitFor({ timeout: WAIT_MS });
      expect(await u.byTestId('feature-card').locator('h3').allTextContents()).toEqual([
        'Temporary',
        'Video Calls',
        'Secure',
        'File Sharing',
      ]);
      expect(await textOf(u.byTestId('lifetime-text'))).toBe(
        'Free rooms last 24 hours, Pro rooms last up to 7 days, and Business rooms are permanent.',
      );
      const tiers = await u.page
        .locator('.tier-card')
        .evaluateAll((cards) =>
          cards.map((c) => [c.querySelector('.tier-name')?.textContent, c.querySelector('.tier-life')?.textContent]),
        );
      expect(tiers).toEqual([
        ['Free', '24 hours'],
        ['Pro', 'Up to 7 days'],
        ['Business', 'Permanent'],
      ]);

      const questions = u.byTestId('faq').locator('.faq-question button');
      expect((await questions.allTextContents()).map((q) => q.trim())).toEqual([
        'How long does a chat room last?',
        'Do I need to register or create an account?',
        'How secure are my conversations?',
        'Can I make video calls?',
        "What's the difference between free and premium?",
        'Can I share files?',
      ]);
      const expanded = () => questions.evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-expanded')));
      expect(await expanded(), 'the first answer is open').toEqual([
        'true',
        'false',
        'false',
        'false',
        'false',
        'false',
      ]);
      await questions.nth(3).click();
      expect(await expanded(), 'opening one closes the other').toEqual([
        'false',
        'false',
        'false',
        'true',
        'false',
        'false',
      ]);
      expect(await textOf(u.page.locator('#faq-3'))).toContain(
        'Pro and Business rooms include one-to-one audio and video calls',
      );
    } finally {
      await u.close();
    }
  }, 60_000);

  /** A guest's new room with a channel open in the composer. */
  async function roomWithChannel(u: User): Promise<void> {
    const room = uniqueRoomName('copy');
    await u.goto(`/${room}`);
    await u.page.locator('[data-testid="join-overlay"][data-mode="create"]').waitFor({ timeout: WAIT_MS });
    await u.byTestId('username-input').fill('guest');
    await u.byTestId('overlay-submit').click();
    await u.byTestId('room-view').waitFor({ timeout: WAIT_MS });
    const guest = await u.page.evaluate(
      () => JSON.parse(localStorage.getItem('ephemera.auth') ?? 'null') as { workspaceId: string; userToken: string },
    );
    const { socket } = await socketJoin(app.url, guest.workspaceId, 'guest', guest.userToken);
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

  it('the invite card: Copy link puts the room\'s address on the clipboard and says "✓ Copied!" for 2 s; a refused copy alerts "Failed to copy link"', async () => {
    const u = await User.open(browser, 'guest', app.url);
    try {
      await u.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
      await roomWithChannel(u);
      const button = u.byTestId('invite-copy-button');
      expect(await textOf(button)).toBe('Copy link');
      // the copy is asynchronous (the clipboard's promise): the label changes once it resolved, then 2 s later back;
      // timed from the click, which is before the copy, so a loaded machine cannot make the 2 s look shorter
      const clickedAt = Date.now();
      await button.click();
      await expect.poll(() => textOf(button), { timeout: WAIT_MS }).toBe('✓ Copied!');
      const room = new URL(u.page.url()).pathname;
      expect(await u.page.evaluate(() => navigator.clipboard.readText())).toBe(`${app.url.replace(/\/$/, '')}${room}`);
      await expect.poll(() => textOf(button), { timeout: WAIT_MS }).toBe('Copy link');
      expect(Date.now() - clickedAt, 'about 2 s').toBeGreaterThan(1900);

      // both ways of copying refused, as a locked-down browser does
      await u.page.evaluate(() => {
        Object.defineProperty(navigator.clipboard, 'writeText', {
          value: () => Promise.reject(new Error('denied')),
          configurable: true,
        });
        document.execCommand = () => false;
      });
      const alert = new Promise<string>((resolve) =>
        u.page.once('dialog', (d) => {
          resolve(d.message());
          d.dismiss().catch(() => {});
        }),
      );
      await button.click();
      expect(await alert).toBe('Failed to copy link');
      expect(await textOf(button)).toBe('Copy link');
    } finally {
      await u.close();
    }
  }, 90_000);

  it('the message counter shows only above 1,800 characters, as n/2000', async () => {
    const u = await User.open(browser, 'guest', app.url);
    try {
      await roomWithChannel(u);
      const box = u.byTestId('composer-textarea');
      await box.fill('x'.repeat(1800));
      expect(await u.byTestId('char-counter').count(), 'no counter at 1,800').toBe(0);
      await box.fill('x'.repeat(1801));
      expect(await textOf(u.byTestId('char-counter'))).toBe('1801/2000');
      await box.fill('x'.repeat(1999));
      expect(await textOf(u.byTestId('char-counter'))).toBe('1999/2000');
    } finally {
      await u.close();
    }
  }, 90_000);
});
