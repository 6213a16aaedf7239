/**
 * The sidebar in a real browser against embedded mode (docs/product/rooms.md R15-R19, R30): a DM opened from
 * Available to message (after the DM confirm) and seen by the partner, unread badges and the tab title (surviving a
 * reload, from the server's read positions), search finding a message and revealing it in its channel (older pages
 * loaded, scrolled into view, highlighted), presence away on a hidden tab seen by the other user, Busy chosen in the
 * status menu (kept while the tab is hidden), and renaming and deleting a channel. Two browser contexts = two
 * people; assertions are on what each one sees.
 * The room with #general and #random is set up over the API; the browsers start from the stored auth record.
 * The tests run in order and build on each other. Registered once per way of running the product
 * (sidebar.e2e.test.ts: embedded; sidebar-distributed.e2e.test.ts: A and B on different gateway replicas).
 */
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { C } from '@ephemera/proto';
import { createRoom, joinRoom, request, socketJoin } from '../../test/helpers/clients.ts';
import {
  assertFrontendBuilt,
  expectText,
  launchBrowser,
  swipeRight,
  uniqueRoomName,
  User,
  WAIT_MS,
} from './browser.ts';
import type { E2ETarget } from './journey.scenario.ts';

const channelRow = (u: User, name: string): Locator =>
  u.page.locator(`[data-testid="channel-row"][data-channel-name="${name}"]`);
const dmRow = (u: User, partner: string): Locator =>
  u.page.locator(`[data-testid="dm-row"][data-partner-name="${partner}"]`);
const badgeOf = (row: Locator): Locator => row.getByTestId('unread-badge');

async function openChannel(u: User, name: string): Promise<void> {
  await channelRow(u, name).click();
  await u.page.locator('[data-testid="channel-title"]', { hasText: `# ${name}` }).waitFor({ timeout: WAIT_MS });
}

/** The page believes its tab is hidden (headless tabs are always visible) or visible again. */
async function setTabHidden(u: User, hidden: boolean): Promise<void> {
  await u.page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

export function registerSidebarScenario(label: string, start: () => Promise<E2ETarget>): void {
  /** screenshots for a person to look at (not asserted), one set per way of running */
  const shot = (name: string) => path.join(os.tmpdir(), `ephemera-e2e-sidebar-${label.split(' ')[0]}-${name}.png`);
  describe(`browser: sidebar (${label})`, () => {
    let target: E2ETarget | undefined;
    let browser: Browser | undefined;
    let alice: User | undefined;
    let bob: User | undefined;
    let roomName = '';
    /** for seeding messages over the API */
    let seed = { base: '', workspaceId: '', channels: {} as Record<string, string> };
    const users = () => {
      if (!alice || !bob) throw new Error('setup failed; see beforeAll');
      return { a: alice, b: bob };
    };

    beforeAll(async () => {
      assertFrontendBuilt();
      [target, browser] = await Promise.all([start(), launchBrowser()]);
      const t = target;
      const base = t.urlA;
      roomName = uniqueRoomName('side');
      const created = await createRoom(base, roomName, 'alice');
      const workspaceId = created.workspaceId as string;
      const { socket } = await socketJoin(base, workspaceId, 'alice', created.userToken);
      seed = { base, workspaceId, channels: {} };
      for (const name of ['general', 'random']) {
        const ch = await request(socket, C.createChannel, { workspaceId, name, type: 'topic', isPrivate: false });
        if (!ch.success) throw new Error(`create-channel: ${ch.message}`);
        seed.channels[name] = ch.channel.id;
      }
      socket.close();
      const joined = await joinRoom(base, workspaceId, 'bob');

      const open = async (who: 'A' | 'B', username: string, userToken: string) => {
        const u =
          who === 'A'
            ? await User.open(browser!, username, t.urlA, t.cookiesA, t.replicaA)
            : await User.open(browser!, username, t.urlB, t.cookiesB, t.replicaB);
        await u.enterRoom({ workspaceId, userToken, username, roomName });
        await u.page.locator('[data-testid="channel-title"]', { hasText: '# general' }).waitFor({ timeout: WAIT_MS });
        return u;
      };
      alice = await open('A', 'alice', created.userToken);
      bob = await open('B', 'bob', joined.userToken);
    });

    afterAll(async () => {
      await alice?.close();
      await bob?.close();
      await browser?.close().catch(() => {});
      await target?.stop();
    });

    it('a DM opened from Available to message is seen by the partner, with preview and unread badge', async () => {
      const { a, b } = users();
      const available = a.page.locator('[data-testid="available-user"][data-username="bob"]');
      await available.waitFor({ timeout: WAIT_MS });
      // DM confirm: Cancel creates nothing; Start creates the DM and opens it
      await available.click();
      const confirm = a.page.getByRole('dialog', { name: 'Start a direct message with bob?' });
      await confirm.waitFor({ timeout: WAIT_MS });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached', timeout: WAIT_MS });
      expect(await dmRow(a, 'bob').count()).toBe(0);
      await available.click();
      await confirm.waitFor({ timeout: WAIT_MS });
      await a.byTestId('start-dm-confirm').click();
      await confirm.waitFor({ state: 'detached', timeout: WAIT_MS });
      await expect
        .poll(() => dmRow(a, 'bob').getAttribute('aria-current'), {
          timeout: WAIT_MS,
          message: "alice's DM with bob is open",
        })
        .toBe('true');
      await available.waitFor({ state: 'detached', timeout: WAIT_MS }); // bob has a DM now: no longer "available"
      await a.send('Hi Bob, this is a direct message');

      const row = dmRow(b, 'alice');
      await row.waitFor({ timeout: WAIT_MS });
      await expectText(
        row.getByTestId('channel-preview'),
        'Hi Bob, this is a direct messa...',
        "bob's DM preview (cut at 30)",
      );
      await expectText(badgeOf(row), '1', "bob's DM unread badge");
      await expect
        .poll(() => row.getByTestId('presence-dot').getAttribute('data-status'), { timeout: WAIT_MS })
        .toBe('online');
      // for a person to look at (not asserted)
      await b.page.screenshot({ path: shot('dm') });
      await row.click();
      await b.waitForMessages(['Hi Bob, this is a direct message']);
      await badgeOf(row).waitFor({ state: 'detached', timeout: WAIT_MS });
      expect(a.pageErrors).toEqual([]);
      expect(b.pageErrors).toEqual([]);
    });

    it('the DM row shows typing... while the partner types, and the preview again when they stop', async () => {
      const { a, b } = users();
      const row = dmRow(b, 'alice');
      await a.byTestId('composer-textarea').fill('typing something');
      await expectText(row.getByTestId('dm-typing'), 'typing...', 'bob sees alice typing in the DM row');
      await a.byTestId('composer-textarea').fill('');
      await row.getByTestId('dm-typing').waitFor({ state: 'detached', timeout: WAIT_MS });
      await row.getByTestId('channel-preview').waitFor({ timeout: WAIT_MS });
    });

    it('a message in another channel raises its unread badge and the tab title; reading it survives a reload', async () => {
      const { a, b } = users();
      await openChannel(b, 'general');
      await openChannel(a, 'random');
      await a.send('news in random');
      await expectText(badgeOf(channelRow(b, 'random')), '1', "bob's #random badge");
      await expect.poll(() => b.page.title(), { timeout: WAIT_MS, message: "bob's tab title" }).toMatch(/^\(1\) /);
      await expectText(
        channelRow(b, 'random').getByTestId('channel-preview'),
        'news in random',
        "bob's #random preview",
      );

      // unread counts come from the server's read positions: a reload keeps the badge until bob reads it
      await b.page.reload({ waitUntil: 'domcontentloaded' });
      await b.byTestId('room-view').waitFor({ timeout: WAIT_MS });
      await expectText(badgeOf(channelRow(b, 'random')), '1', "bob's #random badge after a reload");
      await openChannel(b, 'random');
      await badgeOf(channelRow(b, 'random')).waitFor({ state: 'detached', timeout: WAIT_MS });
      await expect.poll(() => b.page.title(), { timeout: WAIT_MS }).not.toMatch(/^\(\d+\+?\) /);
      await b.page.waitForTimeout(1500); // the throttled mark-read goes out
      await b.page.reload({ waitUntil: 'domcontentloaded' });
      await b.byTestId('room-view').waitFor({ timeout: WAIT_MS });
      await channelRow(b, 'random').waitFor({ timeout: WAIT_MS });
      await b.page.waitForTimeout(1000); // summaries arrive after the join
      expect(await badgeOf(channelRow(b, 'random')).count()).toBe(0);
    });

    it('search finds a message (Messages group), lists users and channels, says No results found, and Escape clears', async () => {
      const { a, b } = users();
      await openChannel(a, 'general');
      await openChannel(b, 'general');
      await a.send('the quarterly zebrafish report is ready');
      await b.page
        .locator('[data-testid="message-content"]', { hasText: 'the quarterly zebrafish report is ready' })
        .waitFor({ timeout: WAIT_MS });

      const search = b.page.locator('#sidebar-search');
      expect(await search.getAttribute('placeholder')).toBe('Search chats, users...');
      await b.page.locator('body').click();
      await b.page.keyboard.press('/');
      await expect.poll(() => b.page.evaluate(() => document.activeElement?.id)).toBe('sidebar-search');
      await search.fill('zebrafish');
      const hit = b.byTestId('search-group-messages').getByTestId('search-snippet');
      await expectText(hit, 'the quarterly zebrafish report is ready', 'message hit');
      await b.page.screenshot({ path: shot('search') });
      await search.fill('ali');
      await b.byTestId('search-group-users').locator('[data-username="alice"]').waitFor({ timeout: WAIT_MS });
      await search.fill('rand');
      await b.byTestId('search-group-chats').getByText('random').waitFor({ timeout: WAIT_MS });
      await search.fill('qqxxnothing');
      await expectText(b.byTestId('search-empty'), 'No results found', 'empty search');
      await search.press('Escape');
      await expect.poll(() => search.inputValue()).toBe('');
      await channelRow(b, 'general').waitFor({ timeout: WAIT_MS });
    });

    it('a message hit opens its channel at the message: older pages load until it is there, it is scrolled into view and highlighted briefly', async () => {
      const { b } = users();
      // in #random: the target, then more than a page (50) of later messages, from two more people (the send rate
      // limit is per user)
      const senders: Awaited<ReturnType<typeof socketJoin>>['socket'][] = [];
      for (const name of ['carl', 'dora']) {
        const joined = await joinRoom(seed.base, seed.workspaceId, name);
        senders.push((await socketJoin(seed.base, seed.workspaceId, name, joined.userToken)).socket);
      }
      const send = async (socket: (typeof senders)[number], content: string, n: number) => {
        const ack = await request(socket, C.sendMessage, {
          clientMessageId: `seed-${Date.now()}-${n}`,
          channelId: seed.channels.random!,
          content,
          type: 'text',
        });
        if (!ack.success) throw new Error(`send-message: ${ack.message}`);
        return ack.message!.id;
      };
      const targetId = await send(senders[0]!, 'the forgotten narwhal memo', 0);
      for (let i = 1; i <= 52; i += 1) await send(senders[i % 2]!, `filler ${i}`, i);
      for (const socket of senders) socket.close();

      // a fresh page: only the latest page of #random will be loaded when it opens
      await b.page.reload({ waitUntil: 'domcontentloaded' });
      await b.byTestId('room-view').waitFor({ timeout: WAIT_MS });
      await b.page.locator('[data-testid="channel-title"]', { hasText: '# general' }).waitFor({ timeout: WAIT_MS });
      const search = b.page.locator('#sidebar-search');
      await search.fill('narwhal');
      const hit = b
        .byTestId('search-group-messages')
        .locator(`[data-testid="search-message"][data-message-id="${targetId}"]`);
      await hit.click();
      await expectText(b.byTestId('channel-title'), '# random', 'the hit opens its channel');
      const row = b.page.locator(`[data-testid="message-item"][data-message-id="${targetId}"]`);
      await row.waitFor({ timeout: WAIT_MS });
      await expect
        .poll(() => row.getAttribute('data-highlighted'), { timeout: WAIT_MS, message: 'highlighted' })
        .toBe('true');
      // in view inside the message list (the list was opened at the bottom, 52 messages later)
      const list = await b.byTestId('message-list').boundingBox();
      const box = await row.boundingBox();
      expect(
        list && box && box.y >= list.y && box.y + box.height <= list.y + list.height,
        'the message is inside the visible list',
      ).toBe(true);
      // by the message text alone: a row's whole text runs into its time ("filler 5" + "20:58" holds "filler 52",
      // which failed a CI run between 20:00 and 23:59)
      const latest = b.page.locator('[data-testid="message-item"]', {
        has: b.page.getByTestId('message-content').getByText('filler 52', { exact: true }),
      });
      expect(await latest.count()).toBe(1);
      // briefly: the highlight goes after about 2 s
      await expect
        .poll(() => row.getAttribute('data-highlighted'), { timeout: WAIT_MS, message: 'highlight ends' })
        .toBe(null);
      expect(b.pageErrors).toEqual([]);
    });

    it('a hidden tab makes the user away for the others; visible again, online', async () => {
      const { a, b } = users();
      const bobDot = dmRow(a, 'bob').getByTestId('presence-dot');
      await expect.poll(() => bobDot.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('online');
      await b.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await setTabHidden(b, true);
      await expect
        .poll(() => bobDot.getAttribute('data-status'), { timeout: WAIT_MS, message: "bob's dot on alice's screen" })
        .toBe('away');
      await setTabHidden(b, false);
      await b.page.evaluate(() => window.dispatchEvent(new Event('focus')));
      await expect.poll(() => bobDot.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('online');
    });

    it('bob chooses Busy in his status menu: alice sees it, a hidden tab keeps it; Online again hands back to the tab', async () => {
      const { a, b } = users();
      const bobDot = dmRow(a, 'bob').getByTestId('presence-dot');
      await b.byTestId('status-button').click();
      await b.byTestId('status-busy').click();
      await expect
        .poll(() => bobDot.getAttribute('data-status'), { timeout: WAIT_MS, message: "bob's dot on alice's screen" })
        .toBe('busy');
      expect(await b.byTestId('status-button').getAttribute('data-status')).toBe('busy');
      await setTabHidden(b, true);
      await new Promise((r) => setTimeout(r, 500));
      expect(await bobDot.getAttribute('data-status')).toBe('busy');
      await setTabHidden(b, false);
      await b.byTestId('status-button').click();
      await b.byTestId('status-online').click();
      await expect.poll(() => bobDot.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('online');
    });

    it('the owner renames a channel inline (Escape cancels, Enter commits) and deletes it; the member follows', async () => {
      const { a, b } = users();
      expect(await b.byTestId('channel-more').count()).toBe(0); // members get no channel menu
      await openChannel(b, 'random');

      const openMenu = async () => {
        const row = a.page.locator('[data-testid="channel-item"]', { has: channelRow(a, 'random') });
        await row.hover();
        await row.getByTestId('channel-more').click();
      };
      await openMenu();
      await a.byTestId('channel-menu-rename').click();
      const input = a.byTestId('channel-rename-input');
      await input.fill('ignored');
      await input.press('Escape');
      await channelRow(a, 'random').waitFor({ timeout: WAIT_MS });

      await openMenu();
      await a.byTestId('channel-menu-rename').click();
      // the field has the focus with the old name selected: typing replaces it
      await expect
        .poll(() => a.page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
        .toBe('channel-rename-input');
      await a.page.keyboard.type('  chatter ');
      await a.page.keyboard.press('Enter');
      await channelRow(a, 'chatter').waitFor({ timeout: WAIT_MS });
      await channelRow(b, 'chatter').waitFor({ timeout: WAIT_MS });
      await expectText(b.byTestId('channel-title'), '# chatter', "bob's open channel header follows the rename");

      const row = a.page.locator('[data-testid="channel-item"]', { has: channelRow(a, 'chatter') });
      await row.hover();
      await row.getByTestId('channel-more').click();
      await a.byTestId('channel-menu-delete').click();
      await a.byTestId('delete-channel-modal').waitFor({ timeout: WAIT_MS });
      await a.byTestId('delete-channel-confirm').click();
      await a.byTestId('delete-channel-modal').waitFor({ state: 'detached', timeout: WAIT_MS });
      await channelRow(a, 'chatter').waitFor({ state: 'detached', timeout: WAIT_MS });
      await channelRow(b, 'chatter').waitFor({ state: 'detached', timeout: WAIT_MS });
      // bob was in it: the first topic channel opens
      await expectText(b.byTestId('channel-title'), '# general', 'bob moved to the first channel');
      expect(a.dialogs).toEqual([]);
      expect(b.dialogs).toEqual([]);
    });

    it("the DM menu's Mark as Read clears the badge", async () => {
      const { a, b } = users();
      await openChannel(b, 'general');
      await dmRow(a, 'bob').click();
      await a.send('are you there?');
      const row = dmRow(b, 'alice');
      await expectText(badgeOf(row), '1', "bob's DM badge");
      const item = b.page.locator('[data-testid="dm-item"]', { has: row });
      await item.hover();
      await item.getByTestId('dm-more').click();
      expect((await b.byTestId('dm-menu').getByRole('menuitem').allTextContents()).map((t) => t.trim())).toEqual([
        'Mark as Read',
        'Delete Conversation',
      ]);
      // Escape closes the menu; a right click opens the same actions
      await b.page.keyboard.press('Escape');
      await b.byTestId('dm-menu').waitFor({ state: 'detached', timeout: WAIT_MS });
      await row.click({ button: 'right' });
      expect(
        (await b.byTestId('dm-context-menu').getByRole('menuitem').allTextContents()).map((t) => t.trim()),
      ).toEqual(['Mark as Read', 'Delete Conversation']);
      await b.page.keyboard.press('Escape');
      await b.byTestId('dm-context-menu').waitFor({ state: 'detached', timeout: WAIT_MS });
      await expectText(badgeOf(row), '1', 'still unread');
      await item.hover();
      await item.getByTestId('dm-more').click();
      await b.byTestId('dm-menu-mark-read').click();
      await badgeOf(row).waitFor({ state: 'detached', timeout: WAIT_MS });
      await expect.poll(() => b.page.title(), { timeout: WAIT_MS }).not.toMatch(/^\(\d+\+?\) /);
    });

    it('Edit Profile: Username is required, then a new name everyone sees', async () => {
      const { a, b } = users();
      await b.byTestId('edit-profile-button').click();
      const input = b.byTestId('profile-username-input');
      await input.fill('   ');
      await b.byTestId('profile-save').click();
      await expectText(b.byTestId('profile-error'), 'Username is required', 'empty username');
      await input.fill('bobby');
      await b.byTestId('profile-save').click();
      await b.byTestId('edit-profile-modal').waitFor({ state: 'detached', timeout: WAIT_MS });
      await expectText(b.byTestId('current-username'), 'bobby', "bob's footer");
      await dmRow(a, 'bobby').waitFor({ timeout: WAIT_MS });
    });

    it('a private channel is seen only by the members its owner picks; the members modal adds one and removes him after a confirmation', async () => {
      const { a, b } = users();
      await a.byTestId('create-channel-button').click();
      await a.byTestId('channel-name-input').fill('secret');
      await a.byTestId('channel-private-checkbox').check();
      await a.byTestId('member-picker').waitFor({ timeout: WAIT_MS });
      await a.byTestId('create-channel-submit').click();
      await a.byTestId('create-channel-modal').waitFor({ state: 'detached', timeout: WAIT_MS });
      await channelRow(a, 'secret').waitFor({ timeout: WAIT_MS });
      await a.send('only for the chosen');
      await b.page.waitForTimeout(1000);
      expect(await channelRow(b, 'secret').count()).toBe(0);

      const item = a.page.locator('[data-testid="channel-item"]', { has: channelRow(a, 'secret') });
      await item.hover();
      await item.getByTestId('channel-more').click();
      await a.byTestId('channel-menu-members').click();
      await a.byTestId('channel-members-modal').locator('[data-testid="member-option"][data-username="bobby"]').check();
      await a.byTestId('channel-members-save').click();
      await a.byTestId('channel-members-modal').waitFor({ state: 'detached', timeout: WAIT_MS });
      await channelRow(b, 'secret').waitFor({ timeout: WAIT_MS });

      // removing a member is confirmed first, naming them; Back returns to the list and removes no one
      const removeBobby = async () => {
        await item.hover();
        await item.getByTestId('channel-more').click();
        await a.byTestId('channel-menu-members').click();
        await a
          .byTestId('channel-members-modal')
          .locator('[data-testid="member-option"][data-username="bobby"]')
          .uncheck();
        await a.byTestId('channel-members-save').click();
        await expectText(
          a.byTestId('remove-members-confirm').locator('p'),
          'Remove bobby from #secret? They will no longer see this channel or its messages.',
          'member removal confirm',
        );
      };
      await removeBobby();
      await a.byTestId('remove-members-back').click();
      await a
        .byTestId('channel-members-modal')
        .locator('[data-testid="member-option"][data-username="bobby"]')
        .waitFor({ timeout: WAIT_MS });
      await a.page.keyboard.press('Escape');
      await a.byTestId('channel-members-modal').waitFor({ state: 'detached', timeout: WAIT_MS });
      await b.page.waitForTimeout(500);
      expect(await channelRow(b, 'secret').count(), 'Back removed no one').toBe(1);
      await removeBobby();
      await a.byTestId('remove-members-confirm-button').click();
      await a.byTestId('channel-members-modal').waitFor({ state: 'detached', timeout: WAIT_MS });
      await channelRow(b, 'secret').waitFor({ state: 'detached', timeout: WAIT_MS });
    });

    it('on a phone, swiping a DM row right reveals Delete Conversation (no Kick User); deleting hides it for me only, a new message brings it back', async () => {
      const { a, b } = users();
      await b.page.setViewportSize({ width: 375, height: 760 });
      const back = b.byTestId('back-button');
      if (await back.isVisible()) await back.click();
      const row = dmRow(b, 'alice');
      await row.waitFor({ state: 'visible', timeout: WAIT_MS });
      await swipeRight(row);
      const actions = b.byTestId('swipe-actions');
      await actions.waitFor({ timeout: WAIT_MS });
      await b.page.screenshot({ path: shot('swipe') });
      expect(await actions.getByRole('button', { name: 'Delete Conversation' }).count()).toBe(1);
      expect(await actions.getByRole('button', { name: /Kick/ }).count()).toBe(0);
      await b.byTestId('swipe-delete').click();
      await b.byTestId('delete-conversation-modal').waitFor({ timeout: WAIT_MS });
      await b.byTestId('delete-conversation-confirm').click();
      await row.waitFor({ state: 'detached', timeout: WAIT_MS });
      // alice keeps it
      await dmRow(a, 'bobby').waitFor({ timeout: WAIT_MS });
      await b.page.waitForTimeout(500);
      expect(await row.count()).toBe(0);
      // and a later message reopens it for bob
      await dmRow(a, 'bobby').click();
      await a.send('still there?');
      await row.waitFor({ timeout: WAIT_MS });
      await expectText(badgeOf(row), '1', "bob's reopened DM");
      expect(b.pageErrors).toEqual([]);
    });
  });
}
