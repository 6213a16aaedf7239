/**
 * The longer tab checks of the superadmin browser test (superadmin.e2e.test.ts), one function per tab, run against
 * the product and the seed that test starts: Rooms (with the moderation viewer), Analytics (with the charts and the
 * historical filter) and System (backups, the maintenance banner for every visitor).
 */
import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { ADMIN_API, ADMIN_TEXT, type AdminRoom, type AnalyticsReport, type StorageUsage } from '@ephemera/proto';
import { expectText, User, WAIT_MS } from './browser.ts';
import { answerConfirm, answerPrompt, expectToast, openTab, type Seed } from './superadmin.helpers.ts';

export interface TabContext {
  admin: User;
  browser: Browser;
  url: string;
  data: Seed;
  /** browsers opened on the way, closed by the test file */
  others: User[];
  api<T>(path: string): Promise<T>;
  /** Refresh on the page, then wait until it finished */
  refresh(): Promise<void>;
  axe(u: User, where: string): Promise<void>;
  shot(name: string): string;
}

const money = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);
const rowsOf = <T>(body: unknown, key: string): T[] =>
  (Array.isArray(body) ? body : ((body as Record<string, T[]>)[key] ?? [])) as T[];

/** Rooms: cards and table from the seed; extend accepts only 1 or 2; the moderation viewer shows the decrypted messages under its banner; axe */
export async function checkRoomsTab(ctx: TabContext): Promise<void> {
  const { admin, api, data, axe, shot } = ctx;
  await openTab(admin, 'rooms');
  await expectText(admin.byTestId('sa-rooms-total'), '2', 'total rooms');
  await expectText(admin.byTestId('sa-rooms-active'), '2', 'active rooms');
  await expectText(admin.byTestId('sa-rooms-expired'), '0', 'expired rooms');
  const owned = admin.page.locator(`[data-testid="sa-room-row"][data-room="${data.owned.name}"]`);
  const guest = admin.page.locator(`[data-testid="sa-room-row"][data-room="${data.guestRoom.name}"]`);
  await expect.poll(() => owned.locator('td').nth(2).textContent(), { timeout: WAIT_MS }).toBe(data.owned.owner);
  expect(await guest.locator('td').nth(2).textContent()).toBe('Unknown');
  const rooms = rowsOf<AdminRoom>(await api(ADMIN_API.rooms), 'rooms');
  const ownedRoom = rooms.find((r) => r.id === data.owned.id)!;
  expect(ownedRoom.userCount, 'olivia and bob').toBe(2);
  await expectText(owned.getByTestId('sa-room-users'), '2', 'owned room users');
  await axe(admin, 'the Rooms tab');

  await owned.getByTestId('sa-room-extend').click();
  await answerPrompt(admin, '3');
  await admin.page.waitForTimeout(500);
  expect(
    await admin
      .byTestId('toast-stack')
      .getByText(/extend/)
      .count(),
    'an answer other than 1 or 2 does nothing',
  ).toBe(0);
  await owned.getByTestId('sa-room-extend').click();
  await answerPrompt(admin, '2');
  await expectToast(admin, 'Room extend completed successfully', 'extend toast');

  const opener = owned.getByTestId('sa-room-open');
  await opener.click();
  const viewer = admin.byTestId('sa-moderation-viewer');
  await viewer.waitFor({ timeout: WAIT_MS });
  await expectText(
    viewer.getByTestId('sa-moderation-banner').locator('strong'),
    'Superadmin Moderation Mode',
    'banner',
  );
  const items = viewer.getByTestId('sa-message');
  await expect.poll(() => items.count(), { timeout: WAIT_MS }).toBe(data.messages.length);
  expect((await viewer.getByTestId('sa-message-content').allTextContents()).sort()).toEqual(
    data.messages.map((m) => m.content).sort(),
  );
  expect(new Set(await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-channel'))))).toEqual(
    new Set(['general', 'random']),
  );
  expect(await viewer.getByTestId('sa-message-decrypted').count(), 'every message decrypted').toBe(
    data.messages.length,
  );
  expect(await viewer.getByTestId('sa-message-decrypt-error').count()).toBe(0);
  expect(await viewer.getByTestId('sa-message-channel-type').count(), 'topic channels show no type').toBe(0);
  expect((await viewer.getByTestId('sa-message-author').allTextContents()).sort()).toEqual([
    'bob',
    'bob',
    'olivia',
    'olivia',
    'olivia',
  ]);
  await axe(admin, 'the moderation viewer');
  await admin.page.screenshot({ path: shot('moderation') });
  await viewer.getByTestId('sa-viewer-refresh').click();
  await expect.poll(() => items.count(), { timeout: WAIT_MS }).toBe(data.messages.length);
  await viewer.getByTestId('sa-viewer-close').click();
  await viewer.waitFor({ state: 'detached', timeout: WAIT_MS });
  expect(await opener.evaluate((el) => el === document.activeElement), 'focus returns to the room name').toBe(true);
}

/** Analytics: the report's figures and the seed; the charts draw the daily rows; the historical filter; reset revenue; axe */
export async function checkAnalyticsTab(ctx: TabContext): Promise<void> {
  const { admin, api, data, refresh, axe, shot } = ctx;
  await openTab(admin, 'analytics');
  await refresh();
  const report = await api<AnalyticsReport>(ADMIN_API.report);
  expect(report.usage.featureUsage.messagesExchanged, 'the five seeded messages').toBe(data.messages.length);
  expect(report.usage.featureUsage.roomsCreated, 'the two seeded rooms').toBe(2);
  await expectText(admin.byTestId('sa-messages'), String(data.messages.length), 'Messages');
  await expectText(admin.byTestId('sa-rooms-created'), '2', 'Rooms Created');
  await expectText(admin.byTestId('sa-monthly-revenue'), money(report.revenue.monthlyRevenue), 'Monthly Revenue');
  await expectText(admin.byTestId('sa-revenue-all-time'), money(report.timeBasedRevenue.allTime.total), 'All Time');
  await expectText(
    admin.byTestId('sa-pv-today'),
    report.pageViewAnalytics.today.pageViews.toLocaleString('en-US'),
    'Page views today',
  );
  await expectText(
    admin.byTestId('sa-uv-today'),
    report.pageViewAnalytics.today.uniqueVisitors.toLocaleString('en-US'),
    'Unique visitors today',
  );
  await expectText(admin.byTestId('sa-failed-payments'), String(report.revenue.failedPayments), 'Failed payments');
  await expectText(admin.byTestId('sa-dau'), String(report.usage.dailyActiveUsers), 'DAU');

  // charts: recharts draws an SVG per trend from report.daily
  expect(report.daily.length).toBeGreaterThan(0);
  const traffic = admin.byTestId('sa-chart-traffic');
  await traffic.locator('svg.recharts-surface').first().waitFor({ timeout: WAIT_MS });
  await expect
    .poll(() => traffic.locator('.recharts-bar-rectangle path, path.recharts-rectangle').count(), {
      timeout: WAIT_MS,
      message: 'page-view bars',
    })
    .toBeGreaterThan(0);
  expect(
    await admin.byTestId('sa-chart-activity').locator('path.recharts-line-curve').count(),
    'three activity lines',
  ).toBe(3);
  expect(
    await admin.byTestId('sa-chart-revenue').locator('path.recharts-area-area, path.recharts-area-curve').count(),
  ).toBeGreaterThan(0);
  await axe(admin, 'the Analytics tab');
  await admin.page.screenshot({ path: shot('analytics'), fullPage: true });

  // historical filter: Apply Filter waits for both dates
  const apply = admin.byTestId('sa-revenue-apply');
  expect(await apply.isDisabled()).toBe(true);
  await admin.byTestId('sa-revenue-start').fill('2020-01-01');
  expect(await apply.isDisabled()).toBe(true);
  await admin.byTestId('sa-revenue-end').fill('2020-01-31');
  expect(await apply.isDisabled()).toBe(false);
  await apply.click();
  await expectText(
    admin.byTestId('sa-revenue-none'),
    'No revenue data found for the selected period.',
    'no revenue in 2020',
  );
  await admin.byTestId('sa-revenue-clear').click();
  expect(await admin.byTestId('sa-revenue-results').count()).toBe(0);
  await admin.byTestId('sa-quick-1').click();
  await expectText(admin.byTestId('sa-revenue-none'), 'No revenue data found for the selected period.', 'quick period');

  await admin.byTestId('sa-reset-revenue').click();
  expect(await answerConfirm(admin, true)).toBe(ADMIN_TEXT.resetRevenueConfirm);
  await expectToast(admin, /^Revenue reset successfully! Deleted \d+ payment records\.$/, 'reset toast');
}

/** System: storage and security figures; a backup is generated and listed; maintenance shows the red banner to every visitor; axe */
export async function checkSystemTab(ctx: TabContext): Promise<void> {
  const { admin, api, refresh, axe, browser, url, others, shot } = ctx;
  await openTab(admin, 'system');
  // The size is PostgreSQL's live-row statistics, which move a few seconds after writes (the projection may still be
  // applying the seed): refresh until the page and a fresh API answer agree.
  let storage = await api<StorageUsage>(ADMIN_API.storageUsage);
  let shown: string | undefined;
  await expect
    .poll(
      async () => {
        await refresh();
        shown = (await admin.byTestId('sa-database-size').first().textContent())?.trim();
        storage = await api<StorageUsage>(ADMIN_API.storageUsage);
        return shown === `${storage.databaseSize.toLocaleString('en-US')} keys`;
      },
      { timeout: WAIT_MS, interval: 1000, message: 'database size: the page and a fresh API answer agree' },
    )
    .toBe(true);
  await expectText(admin.byTestId('sa-backup-count'), String(storage.backupCount), 'backup count');
  const report = await api<AnalyticsReport>(ADMIN_API.report);
  await expectText(
    admin.byTestId('sa-failed-logins'),
    String(report.system.security.failedLoginAttempts),
    'failed logins',
  );
  await axe(admin, 'the System tab');

  const before = await admin.byTestId('sa-backup-row').count();
  await admin.byTestId('sa-backup-generate').click();
  await expectToast(admin, 'Backup generated successfully', 'backup toast');
  await expect.poll(() => admin.byTestId('sa-backup-row').count(), { timeout: WAIT_MS }).toBe(before + 1);

  // a visitor whose page loaded before maintenance (its banner polls every 30 s)
  const early = await User.open(browser, 'early visitor', url);
  others.push(early);
  await early.goto('/contact');
  await early.page.waitForLoadState('networkidle');
  expect(await early.byTestId('maintenance-banner').count()).toBe(0);

  // enabling needs a message: an empty one abandons
  await admin.byTestId('sa-maintenance-toggle').click();
  expect(await admin.byTestId('ask-input').inputValue(), 'the default message').toBe(ADMIN_TEXT.maintenanceDefault);
  await answerPrompt(admin, '');
  await expectText(admin.byTestId('sa-maintenance-state'), 'off', 'still off');
  await admin.byTestId('sa-maintenance-toggle').click();
  await answerPrompt(admin, 'Back at noon');
  await expectToast(admin, 'Maintenance mode enabled', 'enabled toast');
  await expectText(admin.byTestId('maintenance-banner'), 'Back at noon', 'the admin sees the banner');
  const visitor = await User.open(browser, 'visitor', url);
  others.push(visitor);
  await visitor.goto('/');
  await expectText(visitor.byTestId('maintenance-banner'), 'Back at noon', 'a visitor sees the banner');
  expect(await visitor.byTestId('maintenance-banner').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
    'rgb(185, 28, 28)',
  );
  // the early visitor's next write is refused with 503 MAINTENANCE: the banner shows that answer's message at once
  const status = await early.page.evaluate(
    async () =>
      (
        await fetch('/api/contact', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'Late', email: 'late@example.test', category: 'general', message: 'hello' }),
        })
      ).status,
  );
  expect(status, 'writes are refused in maintenance').toBe(503);
  await expectText(early.byTestId('maintenance-banner'), 'Back at noon', 'the refused write shows the banner');
  await axe(admin, 'the System tab in maintenance');
  await admin.page.screenshot({ path: shot('system-maintenance'), fullPage: true });

  await admin.byTestId('sa-maintenance-toggle').click();
  await expectToast(admin, 'Maintenance mode disabled', 'disabled toast');
  await admin.byTestId('maintenance-banner').waitFor({ state: 'detached', timeout: WAIT_MS });
  await visitor.page.reload();
  await visitor.page.waitForLoadState('networkidle');
  expect(await visitor.byTestId('maintenance-banner').count(), 'gone for the visitor').toBe(0);
}
