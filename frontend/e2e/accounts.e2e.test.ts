/**
 * Accounts in a real browser against embedded mode with a real SMTP server (Mailpit): a guest creates a room,
 * registers by the e-mail code read from Mailpit with claimWorkspace, and sees the room on the dashboard with the
 * owner's crown; opening it from there signs this browser into the room as its owner. Signed in, the room's sidebar
 * has the dashboard button (a new tab) and the site header shows Dashboard; as a guest, neither.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { createLogger } from '@ephemera/platform';
import { startEmbedded, type EmbeddedApp } from '../../services/embedded/app.ts';
import { startMailpit, type Mailpit } from '../../test/helpers/mailpit.ts';
import { assertFrontendBuilt, launchBrowser, uniqueRoomName, User, WAIT_MS } from './browser.ts';
import { seriousViolations } from './admin.helpers.ts';
import { enterMailedCode } from './sign-in.ts';

describe('accounts in the browser (embedded, Mailpit)', () => {
  let browser: Browser;
  let app: EmbeddedApp;
  let mail: Mailpit;
  let dataDir: string;
  beforeAll(async () => {
    assertFrontendBuilt();
    mail = await startMailpit();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-accounts-'));
    app = await startEmbedded({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      logger: createLogger('e2e-accounts', 'silent'),
      smtpUrl: mail.smtpUrl,
      google: null,
      frontendDist: process.env.E2E_FRONTEND_DIST,
    });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await mail?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a guest creates a room, registers by e-mail code with claimWorkspace, and the dashboard shows the room with the crown', async () => {
    const u = await User.open(browser, 'guest', app.url);
    try {
      const room = uniqueRoomName('acct');
      await u.goto(`/${room}`);
      await u.page.locator('[data-testid="join-overlay"][data-mode="create"]').waitFor({ timeout: WAIT_MS });
      await u.byTestId('username-input').fill('guest');
      await u.byTestId('overlay-submit').click();
      await u.byTestId('room-view').waitFor({ timeout: WAIT_MS });
      // a guest has no dashboard: no button in the sidebar, Login / Sign Up in the site header
      await u.byTestId('settings-button').waitFor({ timeout: WAIT_MS });
      expect(await u.byTestId('dashboard-button').count()).toBe(0);
      const guest = await u.page.evaluate(
        () => JSON.parse(localStorage.getItem('ephemera.auth') ?? '{}') as { workspaceId: string; userToken: string },
      );
      const workspaceId = guest.workspaceId;
      expect(workspaceId).toBeTruthy();

      await u.goto('/');
      await u.byTestId('nav-login').waitFor({ timeout: WAIT_MS });
      expect(await u.byTestId('nav-dashboard').count()).toBe(0);
      await u.goto(`/login?claimWorkspace=${encodeURIComponent(workspaceId)}`);
      await u.byTestId('claim-hint').waitFor({ timeout: WAIT_MS });
      expect(await seriousViolations(u.page), 'axe on /login').toEqual([]);
      const email = `browser-${Date.now()}@example.test`;
      await enterMailedCode(u, mail, email, 'Owner');
      await u.byTestId('login-verify').click();

      await u.byTestId('dashboard-page').waitFor({ timeout: WAIT_MS });
      const row = u.byTestId('room-row').filter({ hasText: room });
      await row.waitFor({ timeout: WAIT_MS });
      await expect(row.getByTestId('owner-crown').textContent()).resolves.toContain('Owner');
      await expect(u.byTestId('profile-tier').textContent()).resolves.toBe('free');
      expect(await seriousViolations(u.page), 'axe on /dashboard').toEqual([]);
      // the claim replaced the guest's session (the spec deletes it): this browser holds the owner's new token for the
      // room; opening it from the dashboard signs in as owner too (with a token of its own)
      const stored = await u.page.evaluate(
        () =>
          JSON.parse(localStorage.getItem('ephemera.auth') ?? 'null') as {
            workspaceId: string;
            userToken: string;
          } | null,
      );
      expect(stored?.workspaceId).toBe(workspaceId);
      expect(stored?.userToken).not.toBe(guest.userToken);
      await row.getByRole('button', { name: 'Open' }).click();
      await u.byTestId('room-view').waitFor({ timeout: WAIT_MS });

      // signed in: the sidebar's dashboard button opens /dashboard in a new tab (docs/product/rooms.md R15)
      const dashboardButton = u.byTestId('dashboard-button');
      await dashboardButton.waitFor({ timeout: WAIT_MS });
      const [tab] = await Promise.all([u.context.waitForEvent('page'), dashboardButton.click()]);
      await tab.getByTestId('dashboard-page').waitFor({ timeout: WAIT_MS });
      expect(new URL(tab.url()).pathname).toBe('/dashboard');
      expect(new URL(u.page.url()).pathname, 'the room stays open in its own tab').toBe(`/${room}`);
      // and the site header says Dashboard, not Login / Sign Up (rooms.md R3)
      await tab.goto(new URL('/', tab.url()).href);
      await tab.getByTestId('nav-dashboard').waitFor({ timeout: WAIT_MS });
      expect(await tab.getByTestId('nav-login').count()).toBe(0);
      await tab.getByTestId('nav-dashboard').click();
      await tab.waitForURL((url) => url.pathname === '/dashboard', { timeout: WAIT_MS });
      await tab.close();
    } finally {
      await u.close();
    }
  });
});
