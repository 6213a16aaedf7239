/**
 * The app shell in a real browser against embedded mode (`npm start`): react-router routes, accessibility
 * (axe-core: no serious or critical violations), the mobile layout at 375 px, keyboard shortcuts, the unread
 * badge on the tab icon and in the title, and the notification sound's rules (Web Audio observed through a
 * counting stub installed before the page's scripts run).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../../services/embedded/app.ts';
import { assertFrontendBuilt, expectText, launchBrowser, uniqueRoomName, User, WAIT_MS } from './browser.ts';

type Impact = 'minor' | 'moderate' | 'serious' | 'critical' | null | undefined;

/** Serious and critical axe violations of the page as it is now, one line each (rule, impact, first targets). */
async function seriousViolations(page: Page): Promise<string[]> {
  // Contrast is computed from what is painted: a dialog still fading in (opacity < 1) reads as low contrast.
  // Let every running CSS animation and transition that ends (not a spinner's endless one) finish first.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return result.violations
    .filter((v) => (['serious', 'critical'] as Impact[]).includes(v.impact as Impact))
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} -> ${v.nodes
          .slice(0, 4)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

/** Counts the beeps a page starts: every OscillatorNode.start() of the page's AudioContext. */
async function installAudioCounter(user: User): Promise<void> {
  await user.context.addInitScript(() => {
    const w = window as unknown as { __beeps: number };
    w.__beeps = 0;
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (this: OscillatorNode, ...args: Parameters<OscillatorNode['start']>) {
      w.__beeps += 1;
      return start.apply(this, args);
    };
  });
}
const beeps = (u: User) => u.page.evaluate(() => (window as unknown as { __beeps: number }).__beeps);

async function createRoomAsOwner(u: User, room: string, username: string): Promise<void> {
  await u.goto(`/${room}`);
  await u.page.locator('[data-testid="join-overlay"][data-mode="create"]').waitFor({ timeout: WAIT_MS });
  await u.byTestId('username-input').fill(username);
  await u.byTestId('overlay-submit').click();
  await u.byTestId('room-view').waitFor({ timeout: WAIT_MS });
}

async function createChannel(u: User, name: string): Promise<void> {
  await u.byTestId('create-channel-button').click();
  await u.byTestId('channel-name-input').fill(name);
  await u.byTestId('create-channel-submit').click();
  await u.byTestId('create-channel-modal').waitFor({ state: 'detached', timeout: WAIT_MS });
  // creating a channel opens it: its row is the current one. Not "visible": below 768 px the list slides away and is
  // visibility: hidden .25 s later, so a visibility check raced the slide (it failed on a busy machine)
  await u.page
    .locator(`[data-testid="channel-row"][data-channel-name="${name}"][aria-current="true"]`)
    .waitFor({ state: 'attached', timeout: WAIT_MS });
}

async function joinAsMember(u: User, room: string, username: string): Promise<void> {
  await u.goto(`/${room}`);
  await u.page.locator('[data-testid="join-overlay"][data-mode="join"]').waitFor({ timeout: WAIT_MS });
  await u.byTestId('username-input').fill(username);
  await u.page.locator('[data-testid="username-availability"][data-state="available"]').waitFor({ timeout: WAIT_MS });
  await u.byTestId('overlay-submit').click();
  await u.byTestId('room-view').waitFor({ timeout: WAIT_MS });
}

const channelRow = (u: User, name: string) =>
  u.page.locator(`[data-testid="channel-row"][data-channel-name="${name}"]`);

describe('app shell (embedded)', () => {
  let app: Awaited<ReturnType<typeof startEmbedded>> | undefined;
  let browser: Browser | undefined;
  let dataDir = '';
  const users: User[] = [];
  const open = async (label: string, init?: (u: User) => Promise<void>) => {
    if (!browser || !app) throw new Error('the server or the browser did not start (see beforeAll)');
    const u = await User.open(browser, label, app.url);
    users.push(u);
    await init?.(u);
    return u;
  };

  beforeAll(async () => {
    assertFrontendBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-shell-'));
    [app, browser] = await Promise.all([
      startEmbedded({ port: 0, host: '127.0.0.1', dataDir, logger: createLogger('e2e', 'silent') }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    for (const u of users) await u.close();
    await browser?.close().catch(() => {});
    await app?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('routing: /register goes to /login, reserved names and bad encoding are not found, a room path opens the setup overlay', async () => {
    const u = await open('router');
    await u.goto('/register');
    await u.page.waitForURL((url) => url.pathname === '/login', { timeout: WAIT_MS });
    await expectText(
      u.page.locator('[data-testid="login-page"] h1'),
      'Sign in or create an account',
      'login page title',
    );

    for (const p of ['/admin', '/Admin', '/a/b', '/payment', '/%E0%A4%A']) {
      await u.goto(p);
      await expectText(u.page.locator('[data-testid="not-found-page"] h1'), 'Page not found', `not found for ${p}`);
    }
    // and the same for an in-app navigation (no server round trip)
    await u.goto('/');
    await u.byTestId('room-name-input').waitFor({ timeout: WAIT_MS });
    await u.page.evaluate(() => {
      window.history.pushState(null, '', '/%E0%A4%A');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expectText(
      u.page.locator('[data-testid="not-found-page"] h1'),
      'Page not found',
      'not found for a bad percent-encoding',
    );
    await u.goto('/terms');
    await u.byTestId('terms-page').waitFor({ timeout: WAIT_MS });
    await u.goto('/payment/cancelled');
    await u.byTestId('payment-cancelled-page').waitFor({ timeout: WAIT_MS });

    const room = uniqueRoomName('shell-route');
    await u.goto(`/${room}`);
    await u.page.locator('[data-testid="join-overlay"][data-mode="create"]').waitFor({ timeout: WAIT_MS });
    await expectText(u.byTestId('overlay-room-name'), room, 'room name in the setup overlay');
    // /join/room/{unknown} without create=true: Room Not Found modal (a labelled dialog); with it: setup
    await u.goto(`/join/room/${room}`);
    const notFound = u.page.getByRole('dialog', { name: 'Room Not Found' });
    await notFound.waitFor({ timeout: WAIT_MS });
    expect(await notFound.getAttribute('data-testid')).toBe('room-not-found-modal');
    // its ways out (docs/product/rooms.md R5): Go Home, Back to Dashboard, Create This Room
    expect(await notFound.getByRole('link', { name: 'Go Home' }).getAttribute('href')).toBe('/');
    expect(await notFound.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    await notFound.getByRole('button', { name: 'Create This Room' }).waitFor({ timeout: WAIT_MS });
    await notFound.getByRole('link', { name: 'Go Home' }).click();
    await u.page.waitForURL((url) => url.pathname === '/', { timeout: WAIT_MS });
    await u.goto(`/join/room/${room}?create=true`);
    await u.page.locator('[data-testid="join-overlay"][data-mode="create"]').waitFor({ timeout: WAIT_MS });
    // the one-shot flag leaves the address
    await expect.poll(() => new URL(u.page.url()).search, { timeout: WAIT_MS }).toBe('');
    // an entry point without its name goes home
    await u.goto('/join/room/');
    await u.page.waitForURL((url) => url.pathname === '/', { timeout: WAIT_MS });
    await u.byTestId('room-name-input').waitFor({ timeout: WAIT_MS });
  });

  it('in-app links navigate without reloading the page; Back returns', async () => {
    const u = await open('links');
    await u.goto('/');
    await u.byTestId('room-name-input').waitFor({ timeout: WAIT_MS });
    await u.page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    await u.page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'About' }).click();
    await u.page.waitForURL((url) => url.pathname === '/about', { timeout: WAIT_MS });
    await expectText(u.page.locator('[data-testid="about-page"] h1'), 'About Ephemera', 'about page');
    expect(await u.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await u.page.goBack();
    await u.byTestId('room-name-input').waitFor({ timeout: WAIT_MS });
    expect(await u.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    // the landing form navigates to the setup overlay through the router too
    const room = uniqueRoomName('shell-form');
    await u.byTestId('room-name-input').fill(room);
    await u.page.locator('[data-testid="name-availability"][data-state="available"]').waitFor({ timeout: WAIT_MS });
    await u.byTestId('create-room-button').click();
    await u.page.locator('[data-testid="join-overlay"][data-mode="create"]').waitFor({ timeout: WAIT_MS });
    expect(new URL(u.page.url()).pathname).toBe(`/${room}`);
    expect(await u.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  it('axe: the landing page, the setup overlay, the room page (channel, Create Channel dialog, DM) have no serious or critical violations', async () => {
    const u = await open('axe');
    await u.goto('/');
    await u.byTestId('room-name-input').waitFor({ timeout: WAIT_MS });
    expect(await seriousViolations(u.page), 'landing page').toEqual([]);

    const room = uniqueRoomName('shell-axe');
    await u.goto(`/${room}`);
    await u.page.locator('[data-testid="join-overlay"][data-mode="create"]').waitFor({ timeout: WAIT_MS });
    expect(await seriousViolations(u.page), 'setup overlay').toEqual([]);

    await u.byTestId('username-input').fill('axel');
    await u.byTestId('overlay-submit').click();
    await u.byTestId('room-view').waitFor({ timeout: WAIT_MS });
    await createChannel(u, 'general');
    await u.byTestId('composer-textarea').waitFor({ timeout: WAIT_MS });
    await u.send('hello axe');
    await u.waitForMessages(['hello axe']);
    expect(await seriousViolations(u.page), 'room page with a channel open').toEqual([]);

    await u.byTestId('create-channel-button').click();
    await u.byTestId('create-channel-modal').waitFor({ timeout: WAIT_MS });
    expect(await seriousViolations(u.page), 'Create Channel dialog').toEqual([]);
    await u.page.keyboard.press('Escape');
    await u.byTestId('create-channel-modal').waitFor({ state: 'detached', timeout: WAIT_MS });

    // a DM open (from Available to message), with a message each way
    const b = await open('axe-partner');
    await joinAsMember(b, room, 'bea');
    const available = u.page.locator('[data-testid="available-user"][data-username="bea"]');
    await available.click();
    // DM confirm: a labelled dialog first (checked by axe too), Start creates the DM
    const confirmDm = u.page.getByRole('dialog', { name: 'Start a direct message with bea?' });
    await confirmDm.waitFor({ timeout: WAIT_MS });
    expect(await seriousViolations(u.page), 'DM confirm dialog').toEqual([]);
    await u.byTestId('start-dm-confirm').click();
    await confirmDm.waitFor({ state: 'detached', timeout: WAIT_MS });
    await expectText(u.byTestId('chat-header'), /bea/, 'DM header');
    await u.byTestId('composer-textarea').waitFor({ timeout: WAIT_MS });
    await u.send('hi bea');
    await u.waitForMessages(['hi bea']);
    expect(await seriousViolations(u.page), 'room page with a DM open').toEqual([]);
  });

  it('the modal: labelled dialog, focus starts in its field, stays inside on Tab, Escape closes it and focus returns', async () => {
    const u = await open('modal');
    await createRoomAsOwner(u, uniqueRoomName('shell-modal'), 'mona');
    const opener = u.byTestId('create-channel-button');
    await opener.click();
    const dialog = u.page.getByRole('dialog', { name: 'Create Channel' });
    await dialog.waitFor({ timeout: WAIT_MS });
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    await expect
      .poll(() => u.page.evaluate(() => document.activeElement?.id), { timeout: WAIT_MS })
      .toBe('channel-name');
    for (let i = 0; i < 8; i += 1) {
      await u.page.keyboard.press('Tab');
      expect(
        await u.page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))),
        `focus inside after ${i + 1} Tab`,
      ).toBe(true);
    }
    await u.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: WAIT_MS });
    await expect
      .poll(() => u.page.evaluate(() => document.activeElement?.getAttribute('data-testid')), { timeout: WAIT_MS })
      .toBe('create-channel-button');
  });

  it('keyboard: Ctrl+S toggles the settings panel, Escape closes it, / focuses the search and Escape clears it, Ctrl+N opens Create Channel for the owner only; not inside text fields', async () => {
    const owner = await open('keys-owner');
    const room = uniqueRoomName('shell-keys');
    await createRoomAsOwner(owner, room, 'olga');
    await owner.page.locator('body').click({ position: { x: 5, y: 5 } });

    await owner.page.keyboard.press('Control+s');
    const panel = owner.page.getByRole('region', { name: 'Settings - Manage your chat room' });
    await panel.waitFor({ timeout: WAIT_MS });
    await owner.page.keyboard.press('Control+s');
    await panel.waitFor({ state: 'detached', timeout: WAIT_MS });
    await owner.page.keyboard.press('Meta+s');
    await panel.waitFor({ timeout: WAIT_MS });
    await owner.page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached', timeout: WAIT_MS });

    // '/' focuses the sidebar search (and is not typed into it); Escape there clears the query and leaves the field
    const search = owner.page.locator('#sidebar-search');
    await owner.page.keyboard.press('/');
    await expect
      .poll(() => owner.page.evaluate(() => document.activeElement?.id), { timeout: WAIT_MS })
      .toBe('sidebar-search');
    expect(await search.inputValue()).toBe('');
    await owner.page.keyboard.type('zz');
    expect(await search.inputValue()).toBe('zz');
    await owner.page.keyboard.press('Escape');
    await expect.poll(() => search.inputValue(), { timeout: WAIT_MS }).toBe('');
    expect(await owner.page.evaluate(() => document.activeElement?.id)).not.toBe('sidebar-search');

    await owner.page.keyboard.press('Control+n');
    await owner.byTestId('create-channel-modal').waitFor({ timeout: WAIT_MS });
    // inside the dialog's text field Ctrl+S is not a shortcut
    await owner.page.keyboard.press('Control+s');
    await owner.page.waitForTimeout(200);
    expect(await panel.count()).toBe(0);
    await owner.byTestId('channel-name-input').fill('keys');
    await owner.byTestId('create-channel-submit').click();
    await owner.byTestId('create-channel-modal').waitFor({ state: 'detached', timeout: WAIT_MS });
    await owner.byTestId('composer-textarea').waitFor({ timeout: WAIT_MS });
    // typing in the composer: Ctrl+S does nothing
    await owner.byTestId('composer-textarea').focus();
    await owner.page.keyboard.press('Control+s');
    await owner.page.waitForTimeout(200);
    expect(await panel.count()).toBe(0);

    const member = await open('keys-member');
    await joinAsMember(member, room, 'mike');
    await member.page.locator('body').click({ position: { x: 5, y: 5 } });
    await member.page.keyboard.press('Control+n');
    await member.page.waitForTimeout(300);
    expect(await member.byTestId('create-channel-modal').count()).toBe(0);
    await member.page.keyboard.press('Control+s');
    await member.page.getByRole('region', { name: 'Settings - Manage your chat room' }).waitFor({ timeout: WAIT_MS });
  });

  it('mobile (375 px): the list shows, opening a channel slides to the chat, the back arrow returns to the list', async () => {
    const u = await open('mobile');
    await u.page.setViewportSize({ width: 375, height: 740 });
    const room = uniqueRoomName('shell-mobile');
    await createRoomAsOwner(u, room, 'pia');
    const sidebar = u.byTestId('sidebar');
    // no channel yet: the list is on screen
    await sidebar.waitFor({ state: 'visible', timeout: WAIT_MS });
    await createChannel(u, 'general'); // creating a channel opens it
    const chat = u.byTestId('chat-area');
    await chat.waitFor({ state: 'visible', timeout: WAIT_MS });
    await expect.poll(async () => (await chat.boundingBox())?.x, { timeout: WAIT_MS, message: 'chat slid in' }).toBe(0);
    await expect.poll(() => sidebar.isVisible(), { timeout: WAIT_MS, message: 'the list is out of sight' }).toBe(false);

    const back = u.byTestId('back-button');
    expect(await back.isVisible()).toBe(true);
    await back.click();
    await expect
      .poll(async () => (await sidebar.boundingBox())?.x, { timeout: WAIT_MS, message: 'list slid back' })
      .toBe(0);
    await expect.poll(() => sidebar.isVisible(), { timeout: WAIT_MS }).toBe(true);
    await expect
      .poll(() => u.page.locator('[data-testid="chat-area"]').count(), { timeout: WAIT_MS, message: 'no channel open' })
      .toBe(0);

    await channelRow(u, 'general').click();
    await chat.waitFor({ state: 'visible', timeout: WAIT_MS });
    await expect.poll(async () => (await chat.boundingBox())?.x, { timeout: WAIT_MS }).toBe(0);
    await expectText(u.byTestId('channel-title'), '# general', 'chat header after opening the channel');
    // the slide is a CSS transform transition
    expect(await chat.evaluate((el) => getComputedStyle(el).transitionProperty)).toContain('transform');
    expect(u.pageErrors).toEqual([]);
  });

  it('unread: the total shows in the tab title and as a badge on the tab icon; the sound follows its rules and its toggle', async () => {
    const a = await open('badge-a', installAudioCounter);
    const b = await open('badge-b');
    const room = uniqueRoomName('shell-badge');
    await createRoomAsOwner(a, room, 'anna');
    await createChannel(a, 'general');
    await createChannel(a, 'random');
    await channelRow(a, 'general').click();
    await expectText(a.byTestId('channel-title'), '# general', 'A reads #general');
    await joinAsMember(b, room, 'ben');
    await channelRow(b, 'random').click();
    await expectText(b.byTestId('channel-title'), '# random', 'B in #random');
    const icon = a.page.locator('link[rel~="icon"]');
    expect(await icon.getAttribute('href')).toBe('/favicon.svg');
    expect(await beeps(a)).toBe(0);

    await b.send('ping 1');
    await expect.poll(() => a.page.title(), { timeout: WAIT_MS }).toBe(`(1) ${room} · Ephemera`);
    await expect.poll(() => icon.getAttribute('data-badge'), { timeout: WAIT_MS }).toBe('1');
    expect(await icon.getAttribute('href')).toMatch(/^data:image\/png;base64,/);
    // A clicked in the page (interaction), sound is on by default: one beep for a message in another channel
    await expect.poll(() => beeps(a), { timeout: WAIT_MS }).toBe(1);

    await b.send('ping 2');
    await expect.poll(() => a.page.title(), { timeout: WAIT_MS }).toBe(`(2) ${room} · Ephemera`);
    await expect.poll(() => icon.getAttribute('data-badge'), { timeout: WAIT_MS }).toBe('2');
    await expect.poll(() => beeps(a), { timeout: WAIT_MS }).toBe(2);

    // the current channel while the tab is visible: no beep; own messages: no beep
    await channelRow(b, 'general').click();
    await expectText(b.byTestId('channel-title'), '# general', 'B in #general');
    await b.send('in your channel');
    await a.waitForMessages(['in your channel']);
    await a.send('my own');
    await b.waitForMessages(['in your channel', 'my own']);
    await a.page.waitForTimeout(300);
    expect(await beeps(a)).toBe(2);

    // reading #random clears the badge and the title
    await channelRow(a, 'random').click();
    await expect.poll(() => a.page.title(), { timeout: WAIT_MS }).toBe(`${room} · Ephemera`);
    await expect.poll(() => icon.getAttribute('href'), { timeout: WAIT_MS }).toBe('/favicon.svg');

    // sound off: stored, no beep, still off after a reload
    const toggle = a.byTestId('sound-toggle');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(await a.page.evaluate(() => localStorage.getItem('soundEnabled'))).toBe('false');
    await channelRow(b, 'random').click();
    await expectText(b.byTestId('channel-title'), '# random', 'B back in #random');
    await channelRow(a, 'general').click();
    await expectText(a.byTestId('channel-title'), '# general', 'A back in #general');
    const before = await beeps(a);
    await b.send('quiet please');
    await expect.poll(() => a.page.title(), { timeout: WAIT_MS }).toBe(`(1) ${room} · Ephemera`);
    await a.page.waitForTimeout(300);
    expect(await beeps(a)).toBe(before);
    await a.page.reload({ waitUntil: 'domcontentloaded' });
    await a.byTestId('room-view').waitFor({ timeout: WAIT_MS });
    expect(await a.byTestId('sound-toggle').getAttribute('aria-pressed')).toBe('false');
    for (const u of [a, b]) expect(u.pageErrors, `${u.label}: page errors`).toEqual([]);
  });
});
