/**
 * Room administration in real browsers (docs/product/rooms.md R21-R35): the settings panel by
 * role, renaming the room (the address follows), setting and removing the password, a tier change reaching the open
 * room live (internal change-tier, as billing will), max users on pro, themes (upgrade prompt on free, preview,
 * Apply Theme broadcast seen by the other member, the custom theme on business), member roles, kick with the
 * Removed from Chat Room modal, deleting the room with the typed confirmation (seen by another member), and the
 * expiry banner states and countdown chip under a browser clock the test controls (Playwright page.clock).
 * Several browser contexts = several people; assertions are on what each one sees, and on what the server answers.
 * The tests run in order and build on each other.
 */
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { API, C, type Tier } from '@ephemera/proto';
import { createRoom, http, joinRoom, request, socketJoin } from '../../test/helpers/clients.ts';
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
import { H, M, openSettings, rootTheme, rootVar, seriousViolations } from './admin.helpers.ts';

export interface AdminTarget extends E2ETarget {
  /** the room service's internal change-tier (RoomTierChanged), as billing will call it */
  changeTier(workspaceId: string, tier: Tier): Promise<void>;
}

export function registerAdminScenario(label: string, start: () => Promise<AdminTarget>): void {
  /** screenshots for a person to look at (not asserted) */
  const shot = (name: string) => path.join(os.tmpdir(), `ephemera-e2e-admin-${label}-${name}.png`);
  describe(`browser: room administration (${label})`, () => {
    let target: AdminTarget | undefined;
    let browser: Browser | undefined;
    const users: User[] = [];
    let base = '';
    let roomName = '';
    let workspaceId = '';
    let alice: User;
    let bob: User;

    /** A person's browser on a room, starting from the stored auth record; optionally with the page's clock set. */
    const open = async (username: string, userToken: string, room: { name: string; id: string }, clockAt?: number) => {
      const u = await User.open(browser!, username, base);
      users.push(u);
      if (clockAt !== undefined) await u.page.clock.install({ time: clockAt });
      await u.enterRoom({ workspaceId: room.id, userToken, username, roomName: room.name });
      return u;
    };

    beforeAll(async () => {
      assertFrontendBuilt();
      [target, browser] = await Promise.all([start(), launchBrowser()]);
      base = target.urlA;
      roomName = uniqueRoomName('adm');
      const created = await createRoom(base, roomName, 'alice');
      workspaceId = created.workspaceId as string;
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
      alice = await open('alice', created.userToken, { name: roomName, id: workspaceId });
      bob = await open('bob', joined.userToken, { name: roomName, id: workspaceId });
      await alice.page.locator('[data-testid="online-count"]', { hasText: /^2\/5$/ }).waitFor({ timeout: WAIT_MS });
    });

    afterAll(async () => {
      for (const u of users) await u.close();
      await browser?.close().catch(() => {});
      await target?.stop();
    });

    it('settings panel: the owner sees the register banner, Room Information, Quick Actions, Owner Controls and the Danger Zone; a member only the first two', async () => {
      const panel = await openSettings(alice);
      await expectText(
        panel.getByRole('heading', { name: 'Settings - Manage your chat room' }),
        'Settings - Manage your chat room',
        'panel title',
      );
      await expectText(
        alice.byTestId('register-banner').locator('strong'),
        'Register to Keep Your Room!',
        'register banner',
      );
      await expectText(alice.byTestId('info-room-name'), roomName, 'room name');
      await expectText(alice.byTestId('info-active-users'), '2 / 5', 'active users / limit');
      expect(await alice.byTestId('info-expires').textContent()).not.toBe('Never (Business tier)');
      await alice.byTestId('settings-copy-invite').waitFor();
      await alice.byTestId('settings-change-theme-premium').waitFor(); // the premium mark on free
      await alice.byTestId('settings-password').waitFor();
      await alice.byTestId('settings-max-users-locked').waitFor(); // free: the upgrade prompt instead
      expect(await alice.byTestId('settings-max-users').count()).toBe(0);
      await alice.byTestId('settings-extend').waitFor();
      await alice.byTestId('settings-delete-room').waitFor();
      await alice.page.screenshot({ path: shot('settings') });

      await alice.byTestId('settings-max-users-locked').click();
      await expectText(alice.byTestId('upgrade-modal').getByRole('heading'), 'Upgrade required', 'upgrade prompt');
      await alice.page.keyboard.press('Escape');
      await alice.byTestId('upgrade-modal').waitFor({ state: 'detached' });

      await openSettings(bob);
      await bob.byTestId('room-info').waitFor();
      await bob.byTestId('settings-change-theme').waitFor();
      for (const id of [
        'register-banner',
        'settings-password',
        'settings-max-users-locked',
        'settings-extend',
        'settings-delete-room',
      ]) {
        expect(await bob.byTestId(id).count(), `bob sees no ${id}`).toBe(0);
      }
      await bob.byTestId('settings-close').click();
      await bob.byTestId('settings-panel').waitFor({ state: 'detached' });
    });

    it('axe: the room with the settings panel open, and Choose Theme, have no serious or critical violations', async () => {
      await openSettings(alice);
      expect(await seriousViolations(alice.page)).toEqual([]);
      await alice.byTestId('settings-change-theme').click();
      await alice.byTestId('theme-modal').waitFor();
      expect(await seriousViolations(alice.page)).toEqual([]);
      await alice.page.keyboard.press('Escape');
      await alice.byTestId('theme-modal').waitFor({ state: 'detached' });
    });

    it('rename: the owner clicks the name (Escape cancels, Enter commits); everyone sees it and the address follows; a member cannot', async () => {
      const renamed = `${roomName}-x`;
      await alice.byTestId('room-name').click();
      await alice.byTestId('room-name-edit').fill('not-this-one');
      await alice.byTestId('room-name-edit').press('Escape');
      await expectText(alice.byTestId('room-name'), roomName, 'Escape cancels');

      await alice.byTestId('room-name').click();
      await alice.byTestId('room-name-edit').fill(`  ${renamed}  `);
      await alice.byTestId('room-name-edit').press('Enter');
      await expectText(alice.byTestId('room-name'), renamed, 'alice sees the new name');
      await expectText(bob.byTestId('room-name'), renamed, 'bob sees the new name (workspace-updated)');
      await alice.page.waitForURL((u) => u.pathname === `/${renamed}`, { timeout: WAIT_MS });
      await bob.page.waitForURL((u) => u.pathname === `/${renamed}`, { timeout: WAIT_MS });
      expect(await bob.byTestId('room-name').evaluate((el) => el.tagName)).toBe('H1'); // not a button for a member
      // the server: the new name resolves, the old one does not. Polled: the members learn of the rename from the
      // event log, which can reach them before the room's read model has applied it (alice's own answer waits for
      // it, an observer's lookup may not); under CI load that window was long enough to answer 404 once.
      await expect.poll(async () => (await http(base, API.roomByName(renamed))).status, { timeout: WAIT_MS }).toBe(200);
      expect((await http(base, API.roomByName(roomName))).status).toBe(404);
      roomName = renamed;
      // a reload finds the room under its new name (the stored record follows)
      await bob.page.reload();
      await expectText(bob.byTestId('room-name'), renamed, 'bob after a reload');
    });

    it('password: Please enter a password when empty; set shows the lock for everyone; remove takes it away', async () => {
      await openSettings(alice);
      await expectText(alice.byTestId('settings-password'), /Set Password/, 'Set Password');
      await alice.byTestId('settings-password').click();
      await alice.byTestId('password-submit').click();
      await expectText(alice.byTestId('password-error'), 'Please enter a password', 'empty password');
      await alice.byTestId('room-password-input').fill('hunter2');
      await alice.byTestId('password-submit').click();
      await alice.byTestId('password-modal').waitFor({ state: 'detached' });
      await bob.byTestId('lock-icon').waitFor({ timeout: WAIT_MS });
      expect(
        (await http<{ isPasswordProtected: boolean }>(base, API.roomByName(roomName))).body.isPasswordProtected,
      ).toBe(true);

      await expectText(alice.byTestId('settings-password'), /Remove Password/, 'Remove Password');
      await alice.byTestId('settings-password').click();
      await expectText(
        alice.byTestId('password-modal').getByRole('heading'),
        'Remove Password',
        'the modal opens in remove mode',
      );
      await alice.byTestId('password-mode-toggle').click();
      await alice.byTestId('room-password-input').waitFor(); // toggled to set
      await alice.byTestId('password-mode-toggle').click();
      await alice.byTestId('password-submit').click();
      await alice.byTestId('password-modal').waitFor({ state: 'detached' });
      await bob.byTestId('lock-icon').waitFor({ state: 'detached', timeout: WAIT_MS });
      expect(
        (await http<{ isPasswordProtected: boolean }>(base, API.roomByName(roomName))).body.isPasswordProtected,
      ).toBe(false);
    });

    it('themes on free: a premium theme opens the upgrade prompt; a click previews; Apply Theme reaches the other member with who changed it', async () => {
      await openSettings(alice);
      await alice.byTestId('settings-change-theme').click();
      const modal = alice.byTestId('theme-modal');
      await modal.waitFor();
      expect(await modal.locator('[data-testid="theme-option"][data-locked="true"]').count()).toBe(8); // 7 premium + custom
      await modal.locator('[data-theme-id="messenger"]').click();
      await alice.byTestId('upgrade-modal').waitFor();
      await alice.page.keyboard.press('Escape');
      await alice.byTestId('upgrade-modal').waitFor({ state: 'detached' });

      await alice.byTestId('settings-change-theme').click();
      await modal.locator('[data-theme-id="dark"]').click();
      await expect.poll(() => rootTheme(alice), { timeout: WAIT_MS, message: 'alice previews dark' }).toBe('dark');
      await alice.page.waitForTimeout(300); // colour transitions end
      await alice.page.screenshot({ path: shot('theme-preview') });
      expect(await rootTheme(bob)).not.toBe('dark');
      await alice.byTestId('theme-apply').click();
      await modal.waitFor({ state: 'detached' });
      await expect
        .poll(() => rootTheme(bob), { timeout: WAIT_MS, message: 'bob gets the broadcast theme' })
        .toBe('dark');
      expect(await rootVar(bob, '--chat-bg')).toBe('#0b1220');
      expect(await seriousViolations(bob.page), 'axe on the dark theme').toEqual([]);
      await expectText(bob.byTestId('theme-toast'), 'alice changed the room theme to Dark', 'who changed it');
      expect(await alice.byTestId('theme-toast').count(), 'not to the changer').toBe(0);
      // a new page of bob's starts with the room's theme (Workspace.theme), not the default
      await bob.page.reload();
      await bob.byTestId('room-view').waitFor();
      await expect.poll(() => rootTheme(bob), { timeout: WAIT_MS, message: 'bob after a reload' }).toBe('dark');
    });

    it('a tier change reaches the open room live; max users on pro: numbers only, the cap shows for everyone', async () => {
      await target!.changeTier(workspaceId, 'pro');
      await expectText(bob.byTestId('tier-badge'), 'PRO', 'bob sees PRO (workspace-updated)');
      await expectText(alice.byTestId('tier-badge'), 'PRO', 'alice sees PRO');
      await expectText(alice.byTestId('online-count'), '2/25', 'the pro cap');
      await openSettings(alice);
      await alice.byTestId('settings-max-users').click();
      await alice.byTestId('max-users-input').fill('unlimited');
      await alice.byTestId('max-users-submit').click();
      await expectText(
        alice.byTestId('max-users-error'),
        'Please enter a number 2 or higher, or "unlimited"',
        'unlimited is business only',
      );
      await alice.byTestId('max-users-input').fill('1');
      await alice.byTestId('max-users-submit').click();
      await expectText(
        alice.byTestId('max-users-error'),
        'Please enter a number 2 or higher, or "unlimited"',
        'at least 2',
      );
      await alice.byTestId('max-users-input').fill('7');
      await alice.byTestId('max-users-submit').click();
      await alice.byTestId('max-users-modal').waitFor({ state: 'detached' });
      await expectText(bob.byTestId('online-count'), '2/7', 'bob sees the new cap');
      await expectText(alice.byTestId('info-active-users'), '2 / 7', 'settings panel');
      // Extend Room Duration on pro: free of charge, 30 days = 720 hours more
      const before = Date.parse((await http<{ expiresAt: string }>(base, API.info(workspaceId))).body.expiresAt);
      await alice.byTestId('settings-extend').click();
      // the choices' names (rooms.md R35): Standard, and Maximum marked Popular
      await expectText(alice.byTestId('extend-7').getByTestId('extend-name'), 'Standard', '7 days');
      await expectText(alice.byTestId('extend-30').getByTestId('extend-name'), 'Maximum', '30 days');
      await expectText(alice.byTestId('extend-30').getByTestId('extend-popular'), 'Popular', '30 days');
      expect(await alice.byTestId('extend-7').getByTestId('extend-popular').count()).toBe(0);
      await alice.byTestId('extend-30').click();
      await alice.byTestId('extend-submit').click();
      await expectText(
        alice.byTestId('extend-success-modal').locator('p'),
        'Your room has been extended by 30 days.',
        'Room Extended!',
      );
      await alice.page.keyboard.press('Escape');
      const after = Date.parse((await http<{ expiresAt: string }>(base, API.info(workspaceId))).body.expiresAt);
      expect(after - before).toBe(720 * H);
      // the theme list followed the tier: premium themes open, custom still business only
      await alice.byTestId('settings-change-theme').click();
      const modal = alice.byTestId('theme-modal');
      expect(await modal.locator('[data-testid="theme-option"][data-locked="true"]').count()).toBe(1);
      await modal.locator('[data-theme-id="custom"]').click();
      await expectText(alice.byTestId('upgrade-reason'), /Business plan/, 'custom needs business');
      await alice.page.keyboard.press('Escape');
    });

    it('custom theme on a business room: the editor previews, Save & Apply reaches the other member as CSS variables', async () => {
      await target!.changeTier(workspaceId, 'business');
      await expectText(bob.byTestId('tier-badge'), 'BUSINESS', 'bob sees BUSINESS');
      await expectText(alice.byTestId('online-count'), '2/7', 'the custom cap stays');
      await openSettings(alice);
      await expectText(alice.byTestId('info-expires'), 'Never (Business tier)', 'business never expires');
      expect(await alice.byTestId('countdown-chip').count()).toBe(0);
      expect(await alice.byTestId('settings-extend').count()).toBe(0);
      await alice.byTestId('settings-change-theme').click();
      await alice.byTestId('theme-modal').locator('[data-theme-id="custom"]').click();
      await alice.byTestId('theme-customize').click();
      await alice.byTestId('custom-theme-modal').waitFor();
      await alice.byTestId('custom-primaryColor').fill('#aa3300');
      await alice.byTestId('custom-chatBackgroundColor').fill('#fdf6e3');
      await alice.byTestId('custom-fontFamily').selectOption('Georgia');
      await expect
        .poll(() => rootVar(alice, '--primary'), { timeout: WAIT_MS, message: 'alice previews' })
        .toBe('#AA3300');
      await alice.page.waitForTimeout(300); // colour transitions end
      await alice.page.screenshot({ path: shot('custom-theme') });
      await alice.byTestId('custom-theme-save').click();
      await alice.byTestId('custom-theme-modal').waitFor({ state: 'detached' });
      await expect.poll(() => rootTheme(bob), { timeout: WAIT_MS, message: 'bob gets custom' }).toBe('custom');
      expect(await rootVar(bob, '--primary')).toBe('#AA3300');
      expect(await rootVar(bob, '--chat-bg')).toBe('#FDF6E3');
      expect(await rootVar(bob, '--font')).toMatch(/^'Georgia'/);
      expect(await bob.page.evaluate(() => getComputedStyle(document.querySelector('.chat')!).backgroundColor)).toBe(
        'rgb(253, 246, 227)',
      );
    });

    it('roles: the owner makes bob an admin and back (live badge); then kicks him (phone swipe on his DM row): the Removed from Chat Room modal, storage cleared, home', async () => {
      const bobRow = alice.page
        .locator('[data-testid="available-to-message"] li')
        .filter({ has: alice.page.locator('[data-username="bob"]') });
      await bobRow.getByTestId('member-more').click();
      await expectText(alice.byTestId('member-menu-role'), 'Make admin', 'Make admin');
      await alice.byTestId('member-menu-role').click();
      await expectText(bob.byTestId('role-badge'), 'Admin', 'bob is an admin (user-updated)');
      await bob.byTestId('room-name').evaluate((el) => {
        if (el.tagName !== 'BUTTON') throw new Error('an admin may rename');
      });
      await bobRow.getByTestId('member-more').click();
      await expectText(alice.byTestId('member-menu-role'), 'Remove admin', 'Remove admin');
      await alice.byTestId('member-menu-role').click();
      await expectText(bob.byTestId('role-badge'), 'Member', 'bob is a member again');

      // a DM with bob, then on a phone: swiping his row right reveals Kick User beside Delete Conversation
      await bobRow.getByTestId('available-user').click();
      await alice.byTestId('start-dm-confirm').click();
      const dm = alice.page.locator('[data-testid="dm-row"][data-partner-name="bob"]');
      await dm.waitFor({ timeout: WAIT_MS });
      if (await alice.byTestId('settings-panel').count()) await alice.byTestId('settings-close').click();
      await alice.page.setViewportSize({ width: 375, height: 760 });
      const back = alice.byTestId('back-button');
      if (await back.isVisible()) await back.click();
      await dm.waitFor({ state: 'visible', timeout: WAIT_MS });
      await swipeRight(dm);
      await alice.byTestId('swipe-actions').getByRole('button', { name: 'Delete Conversation' }).waitFor();
      await alice.byTestId('swipe-kick').click();
      await expectText(alice.byTestId('kick-user-modal').getByRole('heading'), 'Kick User', 'Kick User confirm');
      await alice.byTestId('kick-user-confirm').click();
      const removed = bob.byTestId('kicked-modal');
      await expectText(removed.getByRole('heading'), 'Removed from Chat Room', 'bob sees the Removed modal');
      await expectText(removed.locator('p').first(), 'You were removed from the room by alice', 'the reason');
      expect(await bob.page.evaluate(() => localStorage.getItem('ephemera.auth'))).toBeNull();
      await expectText(alice.byTestId('online-count'), '1/7', 'bob is gone for alice');
      await alice.page.setViewportSize({ width: 1280, height: 800 });
      await bob.page.waitForURL((u) => u.pathname === '/', { timeout: WAIT_MS });
    });

    it('delete: confirm only with the exact room name; the owner and another member see Chat Room Deleted (success for the owner only) and go home; the name is free again', async () => {
      const carolJoin = await joinRoom(base, workspaceId, 'carol');
      const carol = await open('carol', carolJoin.userToken, { name: roomName, id: workspaceId });
      await openSettings(alice);
      await alice.byTestId('settings-delete-room').click();
      const confirm = alice.byTestId('delete-room-confirm');
      expect(await confirm.isDisabled()).toBe(true);
      await alice.byTestId('delete-room-input').fill(roomName.toUpperCase());
      expect(await confirm.isDisabled()).toBe(true);
      await alice.byTestId('delete-room-input').fill(`${roomName} `);
      expect(await confirm.isDisabled()).toBe(true);
      await alice.byTestId('delete-room-input').fill(roomName);
      expect(await confirm.isDisabled()).toBe(false);
      await confirm.click();
      for (const u of [alice, carol]) {
        const modal = u.byTestId('workspace-deleted-modal');
        await expectText(modal.getByRole('heading'), 'Chat Room Deleted', `${u.label} sees Chat Room Deleted`);
        const byOwner = u === alice;
        await expectText(
          modal.locator('p').first(),
          byOwner ? 'Chat room deleted successfully!' : 'This chat room has been deleted.',
          `${u.label} sees the message`,
        );
        // docs/product/rooms.md R27: the tick is the deleting owner's; a member gets the warning icon
        expect(await modal.locator('.modal-icon').getAttribute('class'), `${u.label}'s icon`).toContain(
          byOwner ? 'tone-success' : 'tone-warning',
        );
        // (checked before the redirect: the test's init script stores the record again on every page load)
        expect(
          await u.page.evaluate(() => localStorage.getItem('ephemera.auth')),
          `${u.label}'s stored room data is cleared`,
        ).toBeNull();
      }
      for (const u of [alice, carol]) await u.page.waitForURL((url) => url.pathname === '/', { timeout: WAIT_MS });
      expect((await http(base, API.roomByName(roomName))).status).toBe(404);
    });

    it('expiry banner and countdown under a controlled clock: hidden, warning, critical (recomputed after 60 s), expired; dismissible; the chip ticks and shows zeros', async () => {
      const name = uniqueRoomName('exp');
      const created = await createRoom(base, name, 'olga');
      const { socket, ack } = await socketJoin(base, created.workspaceId as string, 'olga', created.userToken);
      socket.close();
      const expiresAt = Date.parse(ack.workspace.expiresAt!);
      const room = { name, id: created.workspaceId as string };
      const at = async (msBefore: number) => {
        const u = await open('olga', created.userToken, room, expiresAt - msBefore);
        return u;
      };
      const level = (u: User) => u.byTestId('expiry-banner').getAttribute('data-level');

      const early = await at(5 * H);
      await early.byTestId('countdown-chip').waitFor();
      expect(await early.byTestId('expiry-banner').count(), '5 h left: hidden').toBe(0);
      await early.close();

      const warn = await at(2 * H + 30_000);
      await expectText(warn.byTestId('expiry-text'), 'This room expires in 2 hours 0 minutes', 'warning text');
      expect(await level(warn)).toBe('warning');
      await warn.page.screenshot({ path: shot('expiry-warning') });
      await expectText(warn.byTestId('countdown-chip'), /^02:00:[0-3]\d$/, 'the chip counts down');
      const first = await warn.byTestId('countdown-chip').textContent();
      await warn.page.clock.runFor(2000);
      await expect
        .poll(() => warn.byTestId('countdown-chip').textContent(), { timeout: WAIT_MS, message: 'the chip ticks' })
        .not.toBe(first);
      await warn.byTestId('expiry-dismiss').click();
      await warn.byTestId('expiry-banner').waitFor({ state: 'detached' });
      await warn.close();

      const recompute = await at(H + 30_000);
      expect(await level(recompute)).toBe('warning');
      await recompute.page.clock.fastForward(M);
      await expect
        .poll(() => level(recompute), { timeout: WAIT_MS, message: 'recomputed after 60 s' })
        .toBe('critical');
      await expectText(recompute.byTestId('expiry-text'), /^This room expires in (59|\d) minutes?$/, 'critical text');
      await recompute.close();

      // a guest owner of a free room extends: the pending extension is stored and registration comes first
      const hurry = await at(90 * M);
      await hurry.byTestId('expiry-extend').click();
      await expectText(hurry.byTestId('extend-hurry'), 'Hurry! Room expires in less than 2 hours', 'Hurry!');
      await expectText(
        hurry.byTestId('extend-register-prompt'),
        '🔐 Please register first to extend room duration',
        'register first',
      );
      await hurry.byTestId('extend-30').click();
      await hurry.byTestId('extend-submit').click();
      await hurry.page.waitForURL((u) => u.pathname === '/login', { timeout: WAIT_MS });
      expect(new URL(hurry.page.url()).searchParams.get('redirect')).toBe(`/${name}?resumeExtension=true`);
      expect(JSON.parse(await hurry.page.evaluate(() => localStorage.getItem('pendingExtension') ?? 'null'))).toEqual({
        workspaceId: room.id,
        roomName: name,
        days: 30,
        returnUrl: `/${name}`,
      });
      await hurry.close();

      const past = await at(-M);
      await expectText(past.byTestId('expiry-text'), 'Room has expired', 'expired');
      expect(await level(past)).toBe('expired');
      await expectText(past.byTestId('countdown-chip'), '00:00:00', 'zeros when past');
      await past.close();
    });
  });
}
