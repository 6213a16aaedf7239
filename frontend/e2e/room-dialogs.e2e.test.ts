/**
 * The room's address flags and dialogs in a real browser, in both modes (docs/product/rooms.md R1, R23,
 * payments.md PAY1): ?openUpgrade=true opens Upgrade Plans and ?openExtend=true Extend Room Duration, each 0.5 s after
 * joining, the flag gone from the address; Settings' Upgrade Plan opens the same plans; a guest owner's choice is
 * kept and Claim Your Room opens; a dashboard link's workspaceId, username and token enter the room as that member
 * and leave the address.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { seriousViolations } from './admin.helpers.ts';
import { assertFrontendBuilt, launchBrowser, textOf, uniqueRoomName, User, WAIT_MS } from './browser.ts';
import { MODES, type BrowserTarget } from './targets.ts';

const storedAuth = (u: User) =>
  u.page.evaluate(
    () =>
      JSON.parse(localStorage.getItem('ephemera.auth') ?? 'null') as {
        workspaceId: string;
        userToken: string;
        username: string;
      } | null,
  );

async function createRoomAsGuest(u: User, room: string): Promise<void> {
  await u.goto(`/${room}`);
  await u.page.locator('[data-testid="join-overlay"][data-mode="create"]').waitFor({ timeout: WAIT_MS });
  await u.byTestId('username-input').fill('guest');
  await u.byTestId('overlay-submit').click();
  await u.byTestId('room-view').waitFor({ timeout: WAIT_MS });
}

/** Opens the room with `flag`, and says whether the dialog was absent when the room first showed. */
async function openWithFlag(u: User, room: string, flag: string, dialog: string): Promise<{ waited: boolean }> {
  await u.goto(`/${room}?${flag}=true`);
  await u.byTestId('room-view').waitFor({ timeout: WAIT_MS });
  const waited = (await u.byTestId(dialog).count()) === 0;
  await u.byTestId(dialog).waitFor({ timeout: WAIT_MS });
  return { waited };
}

for (const [mode, start] of MODES) {
  describe(`browser: the room's address flags and plan dialogs (${mode})`, () => {
    let browser: Browser;
    let target: BrowserTarget;
    const open = (label: string) => User.open(browser, label, target.urlA, target.cookiesA, target.replicaA);
    beforeAll(async () => {
      assertFrontendBuilt();
      [target, browser] = await Promise.all([start('room-dialogs', { google: null }), launchBrowser()]);
    }, 240_000);
    afterAll(async () => {
      await browser?.close().catch(() => {});
      await target?.stop();
    });

    it("?openUpgrade=true: Upgrade Plans after 0.5 s, the three plans with prices, the room's plan marked; a guest owner's choice opens Claim Your Room", async () => {
      const u = await open('owner');
      try {
        const room = uniqueRoomName('plans');
        await createRoomAsGuest(u, room);
        const { waited } = await openWithFlag(u, room, 'openUpgrade', 'plans-modal');
        expect(waited, 'the dialog waits 0.5 s after joining').toBe(true);
        expect(new URL(u.page.url()).search, 'the flag left the address').toBe('');
        expect(await textOf(u.page.getByRole('dialog').getByRole('heading').first())).toBe('Upgrade Plans');
        expect(await textOf(u.byTestId('plans-free-price'))).toBe('$0/month');
        expect(await textOf(u.byTestId('plans-pro-price'))).toBe('$9/month');
        expect(await textOf(u.byTestId('plans-business-price'))).toBe('$19/month');
        expect(await textOf(u.byTestId('plans-pro'))).toContain('25 users per room');
        expect(await textOf(u.byTestId('plans-business'))).toContain('Permanent rooms');
        expect(await textOf(u.byTestId('plans-free').getByTestId('plans-current'))).toBe('Current plan');
        expect(await u.byTestId('plans-choose-free').count(), "no button for the room's own plan").toBe(0);
        expect(await textOf(u.byTestId('plans-choose-business'))).toBe('Upgrade to Business');

        expect(await seriousViolations(u.page), 'axe: Upgrade Plans').toEqual([]);
        await u.byTestId('plans-choose-pro').click();
        await u.byTestId('claim-modal').waitFor({ timeout: WAIT_MS });
        expect(await seriousViolations(u.page), 'axe: Claim Your Room').toEqual([]);
        expect(await textOf(u.page.getByRole('dialog').getByRole('heading').first())).toBe('Claim Your Room');
        const pending = await u.page.evaluate(
          () => JSON.parse(localStorage.getItem('pendingUpgrade') ?? 'null') as unknown,
        );
        expect(pending, 'the choice is kept for after the registration').toEqual({
          plan: 'pro',
          returnUrl: `/${room}`,
        });
        expect(u.pageErrors).toEqual([]);
      } finally {
        await u.close();
      }
    }, 90_000);

    it("Settings' Upgrade Plan and the sidebar's FREE badge open the same Upgrade Plans inside the room", async () => {
      const u = await open('owner');
      try {
        const room = uniqueRoomName('plans-settings');
        await createRoomAsGuest(u, room);
        await u.byTestId('settings-button').click();
        await u.byTestId('settings-upgrade').click();
        await u.byTestId('plans-modal').waitFor({ timeout: WAIT_MS });
        expect(new URL(u.page.url()).pathname, 'still in the room').toBe(`/${room}`);
        expect(await textOf(u.byTestId('plans-pro-price'))).toBe('$9/month');
        await u.page.keyboard.press('Escape');
        await u.byTestId('plans-modal').waitFor({ state: 'detached' });
        await u.byTestId('settings-close').click();
        await u.byTestId('tier-badge').click();
        await u.byTestId('plans-modal').waitFor({ timeout: WAIT_MS });
        expect(await textOf(u.byTestId('plans-free').getByTestId('plans-current'))).toBe('Current plan');
      } finally {
        await u.close();
      }
    }, 90_000);

    it('?openExtend=true: Extend Room Duration after 0.5 s with its two choices, the flag gone from the address', async () => {
      const u = await open('owner');
      try {
        const room = uniqueRoomName('extend-flag');
        await createRoomAsGuest(u, room);
        const { waited } = await openWithFlag(u, room, 'openExtend', 'extend-modal');
        expect(waited, 'the dialog waits 0.5 s after joining').toBe(true);
        expect(new URL(u.page.url()).search).toBe('');
        expect(await textOf(u.page.getByRole('dialog').getByRole('heading').first())).toBe('Extend Room Duration');
        expect(await textOf(u.byTestId('extend-7'))).toContain('Standard');
        expect(await textOf(u.byTestId('extend-30'))).toContain('Maximum');
      } finally {
        await u.close();
      }
    }, 90_000);

    it('a link with workspaceId, username and token enters the room as that member, and the three leave the address', async () => {
      const owner = await open('owner');
      const other = await open('linked');
      try {
        const room = uniqueRoomName('token-link');
        await createRoomAsGuest(owner, room);
        const auth = (await storedAuth(owner))!;
        const q = new URLSearchParams({
          workspaceId: auth.workspaceId,
          username: auth.username,
          token: auth.userToken,
        });
        await other.goto(`/${room}?${q}`);
        await other.byTestId('room-view').waitFor({ timeout: WAIT_MS });
        expect(await other.byTestId('join-overlay').count(), 'no join form: the token opened the room').toBe(0);
        expect(new URL(other.page.url()).search, 'workspaceId, username and token left the address').toBe('');
        expect(await storedAuth(other)).toMatchObject({ workspaceId: auth.workspaceId, userToken: auth.userToken });
        await other.byTestId('settings-button').click();
        await other.byTestId('register-banner').waitFor({ timeout: WAIT_MS }); // the owner's banner: entered as the owner
      } finally {
        await owner.close();
        await other.close();
      }
    }, 90_000);
  });
}
