/**
 * The superadmin dashboard in a real browser (docs/product/admin.md ADM3-ADM12) against embedded mode
 * with a real Mailpit: seeded accounts, rooms with messages in two channels, a contact message and page views; the
 * superadmin signs in by e-mail code and opens every tab. The figures shown equal the server's answers and the seed,
 * the charts draw the data, the moderation viewer shows the decrypted messages under its banner, the tabs become a
 * dropdown at 375 px, axe finds no serious violation on any tab, and an ordinary account is sent away with the alert.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { createLogger, rateLimitConfig } from '@ephemera/platform';
import { ADMIN_API, ADMIN_PAGE_PATH, ADMIN_TEXT, type AnalyticsReport, type DashboardAnalytics } from '@ephemera/proto';
import { startEmbedded, type EmbeddedApp } from '../../services/embedded/app.ts';
import { startMailpit, type Mailpit } from '../../test/helpers/mailpit.ts';
import { assertFrontendBuilt, expectText, launchBrowser, textOf, User, WAIT_MS } from './browser.ts';
import { seriousViolations } from './admin.helpers.ts';
import {
  adminGet,
  answerConfirm,
  answerPrompt,
  expectToast,
  openTab,
  seed,
  signUp,
  type Seed,
} from './superadmin.helpers.ts';
import { checkAnalyticsTab, checkRoomsTab, checkSystemTab, type TabContext } from './superadmin.tabs.ts';
import { signInByCode } from './sign-in.ts';

const ADMIN_EMAIL = 'root-admin@example.test';
const money = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);
/** screenshots for a person to look at (not compared) */
const shot = (name: string) => path.join(os.tmpdir(), `ephemera-e2e-superadmin-${name}.png`);

describe('the superadmin dashboard in the browser (embedded, Mailpit)', () => {
  let browser: Browser;
  let app: EmbeddedApp;
  let mail: Mailpit;
  let dataDir: string;
  let data: Seed;
  let admin: User;
  let adminToken: string;
  const others: User[] = [];
  const axe = async (u: User, where: string) => expect(await seriousViolations(u.page), `axe on ${where}`).toEqual([]);
  const api = <T>(p: string) => adminGet<T>(app.url, adminToken, p);
  /** the page's figures after Refresh, so they and the API answers read afterwards describe the same moment */
  const refresh = async () => {
    await admin.byTestId('sa-refresh').click();
    await expect.poll(() => admin.byTestId('sa-refresh').isEnabled(), { timeout: WAIT_MS }).toBe(true);
  };
  const ctx: TabContext = {
    get admin() {
      return admin;
    },
    get browser() {
      return browser;
    },
    get url() {
      return app.url;
    },
    get data() {
      return data;
    },
    others,
    api,
    refresh,
    axe,
    shot,
  };

  beforeAll(async () => {
    assertFrontendBuilt();
    mail = await startMailpit();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-superadmin-'));
    app = await startEmbedded({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      logger: createLogger('e2e-superadmin', 'silent'),
      smtpUrl: mail.smtpUrl,
      frontendDist: process.env.E2E_FRONTEND_DIST,
      google: null,
      superadminEmail: ADMIN_EMAIL,
      rateLimits: rateLimitConfig(process.env, { signInCodesPerAddress: { points: 1000, durationSec: 3600 } }),
    });
    browser = await launchBrowser();
    data = await seed(app.url, mail, Date.now().toString(36));
    admin = await User.open(browser, 'superadmin', app.url);
    await signInByCode(admin, mail, ADMIN_EMAIL, 'root', ADMIN_PAGE_PATH);
    await admin.byTestId('superadmin-page').waitFor({ timeout: WAIT_MS });
    adminToken = await admin.page.evaluate(
      () => JSON.parse(localStorage.getItem('ephemera.account') ?? '{}').token as string,
    );
    expect(adminToken).toBeTruthy();
  }, 180_000);
  afterAll(async () => {
    for (const u of others) await u.close();
    await admin?.close();
    await browser?.close();
    await app?.stop();
    await mail?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a visitor who is not signed in goes to /login; an ordinary account sees the alert and goes to /dashboard', async () => {
    const anon = await User.open(browser, 'anonymous', app.url);
    others.push(anon);
    const reported: { path: string; userAgent?: string }[] = [];
    anon.page.on('request', (r) => {
      if (new URL(r.url()).pathname === ADMIN_API.pageview && r.method() === 'POST') reported.push(r.postDataJSON());
    });
    await anon.goto(ADMIN_PAGE_PATH);
    await anon.page.waitForURL((u) => u.pathname === '/login', { timeout: WAIT_MS });
    // every route change reports its path (fire-and-forget), with the browser's user agent
    await expect.poll(() => reported.map((r) => r.path), { timeout: WAIT_MS }).toEqual([ADMIN_PAGE_PATH, '/login']);
    const ua = await anon.page.evaluate(() => navigator.userAgent);
    expect(reported.every((r) => r.userAgent === ua)).toBe(true);

    const plain = await signUp(app.url, mail, `plain-${Date.now().toString(36)}@example.test`, 'plain');
    const u = await User.open(browser, 'ordinary', app.url);
    others.push(u);
    await u.context.addInitScript(
      (r) => {
        if (!localStorage.getItem('ephemera.account')) localStorage.setItem('ephemera.account', r);
      },
      JSON.stringify({ token: plain.token, user: { email: plain.email, username: plain.username } }),
    );
    await u.goto(ADMIN_PAGE_PATH);
    await u.page.waitForURL((url) => url.pathname === '/dashboard', { timeout: WAIT_MS });
    expect(u.dialogs).toContain(`alert: ${ADMIN_TEXT.unauthorized}`);
    expect(await u.byTestId('superadmin-page').count()).toBe(0);
  });

  it("Dashboard: the five cards equal the server's figures and the seed; System Health; quick actions; axe", async () => {
    await openTab(admin, 'dashboard');
    await refresh();
    const d = await api<DashboardAnalytics>(ADMIN_API.dashboard);
    expect(d.activeRooms, 'both seeded rooms are active').toBe(2);
    expect(d.pageViewsToday, 'the seeded page views (the bot is not counted)').toBeGreaterThanOrEqual(
      data.pageViews.length,
    );
    await expectText(admin.byTestId('sa-active-users'), String(d.activeUsers), 'Active Users');
    await expectText(admin.byTestId('sa-active-rooms'), '2', 'Active Rooms');
    await expectText(admin.byTestId('sa-conversion-rate'), `${d.conversionRate.toFixed(1)}%`, 'Conversion Rate');
    await expectText(admin.byTestId('sa-today-revenue'), money(d.todayRevenue), "Today's Revenue");
    await expectText(
      admin.byTestId('sa-page-views-today'),
      d.pageViewsToday.toLocaleString('en-US'),
      'Page Views Today',
    );
    await expectText(admin.byTestId('sa-server-status'), 'Healthy', 'Server Status');
    await expectText(admin.byTestId('sa-uptime'), `${d.uptime.toFixed(2)}%`, 'Uptime');
    await expectText(admin.byTestId('sa-error-rate'), `${d.errorRate.toFixed(2)}%`, 'Error Rate');

    await admin.byTestId('sa-database-cleanup').click();
    expect(await answerConfirm(admin, false)).toBe(ADMIN_TEXT.cleanupConfirm);
    const download = admin.page.waitForEvent('download', { timeout: WAIT_MS });
    await admin.byTestId('sa-export-users').click();
    expect((await download).suggestedFilename()).toMatch(/^users-export-.*\.csv$/);
    await axe(admin, 'the Dashboard tab');
    await admin.page.screenshot({ path: shot('dashboard'), fullPage: true });
  });

  it('Users: the seeded accounts (not the superadmin) with tier badges; a reason is required; the admin upgrade gives an Admin Trial; axe', async () => {
    await openTab(admin, 'users');
    const rows = admin.byTestId('sa-user-row');
    await expect
      .poll(() => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-email'))), { timeout: WAIT_MS })
      .toEqual(expect.arrayContaining(data.accounts.map((a) => a.email)));
    expect(
      await admin.page.locator(`[data-testid="sa-user-row"][data-email="${ADMIN_EMAIL}"]`).count(),
      'the superadmin is hidden',
    ).toBe(0);
    const report = await api<AnalyticsReport>(ADMIN_API.report);
    await expectText(admin.byTestId('sa-tier-free'), String(report.users.byTier.free), 'free users');
    await expectText(admin.byTestId('sa-users-total'), String(report.users.total), 'total users');
    await expectText(admin.byTestId('sa-users-new'), String(report.users.newUsersLast30Days), 'new users');

    await admin.byTestId('sa-user-search').fill('pablo');
    await expect.poll(() => rows.count(), { timeout: WAIT_MS }).toBe(1);
    const pablo = rows.first();
    await expectText(pablo.getByTestId('sa-user-tier'), 'free', 'pablo is free');
    await axe(admin, 'the Users tab');
    await admin.page.screenshot({ path: shot('users'), fullPage: true });

    // suspend with an empty reason: abandoned
    await pablo.getByTestId('sa-user-suspend').click();
    await answerPrompt(admin, '   ');
    expect(await pablo.getByTestId('sa-suspended').count(), 'no reason, no suspension').toBe(0);

    await pablo.getByTestId('sa-user-upgrade').click();
    const dialog = admin.byTestId('sa-upgrade-dialog');
    await expectText(dialog.getByTestId('sa-upgrade-pro'), 'Pro10 rooms, 25 users', 'Pro option');
    await expectText(dialog.getByTestId('sa-upgrade-business'), 'BusinessUnlimited', 'Business option');
    await axe(admin, 'the admin upgrade dialog');
    await dialog.getByTestId('sa-upgrade-pro').click();
    await expectToast(admin, 'User upgrade completed successfully', 'upgrade toast');
    // the toast stays about 4 s, then slides out in 0.3 s
    const shownAt = Date.now();
    const upgraded = admin.byTestId('toast-stack').getByText('User upgrade completed successfully');
    await upgraded.waitFor({ state: 'detached', timeout: WAIT_MS });
    expect(Date.now() - shownAt, 'shown for 4 s').toBeGreaterThanOrEqual(3_900);
    await expectText(pablo.getByTestId('sa-admin-trial'), 'Admin Trial', 'Admin Trial badge');
    await expectText(pablo.getByTestId('sa-user-tier'), 'pro', 'pablo is pro');

    await pablo.getByTestId('sa-user-suspend').click();
    await answerPrompt(admin, 'spam links');
    await expectToast(admin, 'User suspend completed successfully', 'suspend toast');
    await expectText(pablo.getByTestId('sa-suspended'), 'Suspended', 'Suspended badge');
    await admin.byTestId('sa-user-search').fill('');
  });

  it('Rooms: cards and table from the seed; extend accepts only 1 or 2; the moderation viewer shows the decrypted messages under its banner; axe', async () => {
    await checkRoomsTab(ctx);
  });

  it("Analytics: the report's figures and the seed; the charts draw the daily rows; the historical filter; reset revenue; axe", async () => {
    await checkAnalyticsTab(ctx);
  });

  it('System: storage and security figures; a backup is generated and listed; maintenance shows the red banner to every visitor; axe', async () => {
    await checkSystemTab(ctx);
  });

  it('Feedback: counts and the seeded message; the status dropdown; delete asks first; axe', async () => {
    await openTab(admin, 'feedback');
    await expectText(admin.byTestId('sa-feedback-total'), '1', 'total');
    await expectText(admin.byTestId('sa-feedback-pending'), '1', 'pending');
    const row = admin.byTestId('sa-feedback-row').first();
    expect(await textOf(row.locator('td').first())).toBe(`${data.contact.name}${data.contact.email}`);
    await expectText(row.getByTestId('sa-feedback-message'), data.contact.message, 'message');
    await axe(admin, 'the Feedback tab');
    await row.getByTestId('sa-feedback-status').selectOption('read');
    await expectText(admin.byTestId('sa-feedback-read'), '1', 'read after the change');
    await expectText(admin.byTestId('sa-feedback-pending'), '0', 'no longer pending');
    await admin.page.screenshot({ path: shot('feedback'), fullPage: true });
    await row.getByTestId('sa-feedback-delete').click();
    expect(await answerConfirm(admin, false)).toBe(ADMIN_TEXT.feedbackDeleteConfirm);
    expect(await admin.byTestId('sa-feedback-row').count(), 'cancelled: kept').toBe(1);
  });

  it('Settings: auto-delete days (1..1000, other input ignored), status and history; axe', async () => {
    await openTab(admin, 'settings');
    const days = admin.byTestId('sa-auto-delete-days');
    expect(await days.inputValue()).toBe('90');
    for (const bad of ['1001', '0', '2.5', '-3']) {
      await days.fill(bad);
      expect(await days.inputValue(), `${bad} is not a whole number from 1 to 1000: ignored`).toBe('90');
    }
    await days.fill('120');
    await expectToast(admin, 'Configuration updated successfully', 'days saved');
    await expectText(admin.byTestId('sa-status-days'), '120', 'the status shows the new days');
    await expectText(admin.byTestId('sa-status-enabled'), 'No', 'auto-delete off');
    await expectText(admin.byTestId('sa-last-run'), 'Never', 'never run');
    await axe(admin, 'the Settings tab');

    // manual cleanup: the confirmation states the count; the page reloads 2 s after
    const eligible = Number(await textOf(admin.byTestId('sa-status-eligible')));
    const reloaded = admin.page.waitForEvent('load', { timeout: WAIT_MS });
    await admin.byTestId('sa-cleanup-run').click();
    expect(await answerConfirm(admin, true)).toBe(
      `This will permanently delete ${eligible} inactive user${eligible === 1 ? '' : 's'}. This cannot be undone. Continue?`,
    );
    await expectToast(admin, 'Manual cleanup triggered successfully', 'cleanup toast');
    expect(await admin.byTestId('sa-cleanup-run').isDisabled(), 'disabled while running').toBe(true);
    await reloaded;
    await admin.byTestId('superadmin-page').waitFor({ timeout: WAIT_MS });
    await openTab(admin, 'settings');
    await expect
      .poll(async () => textOf(admin.byTestId('sa-last-run')), {
        timeout: WAIT_MS,
        message: 'the run is in the history',
      })
      .not.toBe('Never');
  });

  it('on a phone (375 px) the tabs are a dropdown', async () => {
    await admin.page.setViewportSize({ width: 375, height: 760 });
    try {
      const select = admin.byTestId('sa-tab-select');
      await select.waitFor({ state: 'visible', timeout: WAIT_MS });
      expect(await admin.byTestId('sa-tab-dashboard').isVisible(), 'the tab row is hidden').toBe(false);
      await select.selectOption('rooms');
      await admin.byTestId('sa-panel-rooms').waitFor({ timeout: WAIT_MS });
      expect(
        await admin.page.evaluate(() => document.documentElement.scrollWidth),
        'no sideways scrolling of the page',
      ).toBeLessThanOrEqual(375);
      await axe(admin, 'the Rooms tab at 375 px');
      await admin.page.screenshot({ path: shot('rooms-375'), fullPage: true });
    } finally {
      await admin.page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('Logout signs the superadmin out and goes to /login', async () => {
    await admin.byTestId('sa-logout').click();
    await admin.page.waitForURL((u) => u.pathname === '/login', { timeout: WAIT_MS });
    expect(await admin.page.evaluate(() => localStorage.getItem('ephemera.account'))).toBeNull();
    const res = await fetch(app.url + ADMIN_API.config, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(res.status, 'the session is revoked').toBe(401);
  });
});
