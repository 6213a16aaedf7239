/**
 * The Users and Rooms tabs over every row in a real browser (docs/product/admin.md ADM4, ADM6), embedded with
 * Mailpit: 60 accounts and 60 rooms, more than the 50 a page shows. The oldest of each is not on the first page; the
 * superadmin finds it by typing a part of its username or name (the server's search, asked as one types), sees the
 * server's totals on the cards and under the table, and reaches it with Next. A search too short for the sealed
 * e-mails and usernames says so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { createLogger, rateLimitConfig } from '@ephemera/platform';
import { ADMIN_PAGE_PATH } from '@ephemera/proto';
import { startEmbedded, type EmbeddedApp } from '../../services/embedded/app.ts';
import { startMailpit, type Mailpit } from '../../test/helpers/mailpit.ts';
import { createRoom } from '../../test/helpers/clients.ts';
import { assertFrontendBuilt, expectText, launchBrowser, User, WAIT_MS } from './browser.ts';
import { openTab, signUp } from './superadmin.helpers.ts';
import { signInByCode } from './sign-in.ts';

const ADMIN_EMAIL = 'lists-admin@example.test';
const ROWS = 60;

describe("the superadmin's Users and Rooms lists over every row (embedded, Mailpit)", () => {
  let browser: Browser;
  let app: EmbeddedApp;
  let mail: Mailpit;
  let dataDir: string;
  let admin: User;
  const tag = Date.now().toString(36);
  const oldest = { email: `zephyrine-${tag}@example.test`, username: `zephyrine${tag}`, room: `aurora-${tag}` };

  beforeAll(async () => {
    assertFrontendBuilt();
    mail = await startMailpit();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-e2e-lists-'));
    app = await startEmbedded({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      logger: createLogger('e2e-lists', 'silent'),
      smtpUrl: mail.smtpUrl,
      frontendDist: process.env.E2E_FRONTEND_DIST,
      google: null,
      superadminEmail: ADMIN_EMAIL,
      rateLimits: rateLimitConfig(process.env, {
        signInCodesPerAddress: { points: 1000, durationSec: 3600 },
        roomCreationsPerAddress: { points: 1000, durationSec: 3600 },
      }),
    });
    // the oldest first: newest first, it is the last row, beyond the first page of 50
    await signUp(app.url, mail, oldest.email, oldest.username);
    await createRoom(app.url, oldest.room, 'alice');
    for (let i = 0; i < ROWS - 1; i++) {
      await signUp(app.url, mail, `member${i}-${tag}@example.test`, `member${i}`);
      await createRoom(app.url, `room${i}-${tag}`, 'alice');
    }
    browser = await launchBrowser();
    admin = await User.open(browser, 'superadmin', app.url);
    await signInByCode(admin, mail, ADMIN_EMAIL, 'root', ADMIN_PAGE_PATH);
    await admin.byTestId('superadmin-page').waitFor({ timeout: WAIT_MS });
  }, 240_000);
  afterAll(async () => {
    await admin?.close();
    await browser?.close();
    await app?.stop();
    await mail?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("Users: an account beyond the first 50 is found by a part of its username and on the next page; the totals are every account's (ADM4)", async () => {
    await openTab(admin, 'users');
    const rows = admin.byTestId('sa-user-row');
    const emails = () => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-email')));
    await expect.poll(() => rows.count(), { timeout: WAIT_MS }).toBe(50);
    expect(await emails()).not.toContain(oldest.email);
    await expectText(admin.byTestId('sa-users-total'), String(ROWS), 'every account but the superadmin');
    await expectText(admin.byTestId('sa-tier-free'), String(ROWS), 'free accounts');
    await expectText(admin.byTestId('sa-users-pager-status'), `1–50 of ${ROWS} users · page 1 of 2`, 'the first page');

    await admin.byTestId('sa-user-search').fill('ze');
    await expectText(
      admin.byTestId('sa-user-search-hint'),
      'Type at least 3 characters to search.',
      'a search too short',
    );
    await admin.byTestId('sa-user-search').fill(`phyrine${tag}`.toUpperCase());
    await expect.poll(emails, { timeout: WAIT_MS }).toEqual([oldest.email]);
    await expectText(admin.byTestId('sa-users-total'), '1', "the search's total");
    await expectText(admin.byTestId('sa-users-pager-status'), '1–1 of 1 users · page 1 of 1', 'one page');

    await admin.byTestId('sa-user-search').fill('');
    await expect.poll(() => rows.count(), { timeout: WAIT_MS }).toBe(50);
    await admin.byTestId('sa-users-pager-next').click();
    await expectText(
      admin.byTestId('sa-users-pager-status'),
      `51–${ROWS} of ${ROWS} users · page 2 of 2`,
      'the second page',
    );
    await expect.poll(emails, { timeout: WAIT_MS }).toContain(oldest.email);
    expect(await rows.count()).toBe(ROWS - 50);
    expect((await emails()).at(-1)).toBe(oldest.email);

    await admin.byTestId('sa-user-tier-filter').selectOption('pro');
    await expect.poll(() => rows.count(), { timeout: WAIT_MS }).toBe(0);
    await expectText(admin.byTestId('sa-users-pager-status'), '0–0 of 0 users · page 1 of 1', 'no pro account');
    await admin.byTestId('sa-user-tier-filter').selectOption('');
  });

  it('Rooms: a room beyond the first 50 is found by a part of its name and on the next page; the cards count every room (ADM6)', async () => {
    await openTab(admin, 'rooms');
    const rows = admin.byTestId('sa-room-row');
    const names = () => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-room')));
    await expect.poll(() => rows.count(), { timeout: WAIT_MS }).toBe(50);
    expect(await names()).not.toContain(oldest.room);
    await expectText(admin.byTestId('sa-rooms-total'), String(ROWS), 'every room');
    await expectText(admin.byTestId('sa-rooms-active'), String(ROWS), 'active rooms');
    await expectText(admin.byTestId('sa-rooms-users'), String(ROWS), 'their members');

    await admin.byTestId('sa-room-search').fill(`rora-${tag}`);
    await expect.poll(names, { timeout: WAIT_MS }).toEqual([oldest.room]);
    await expectText(admin.byTestId('sa-rooms-total'), '1', "the search's total");

    await admin.byTestId('sa-room-search').fill('');
    await expect.poll(() => rows.count(), { timeout: WAIT_MS }).toBe(50);
    await admin.byTestId('sa-rooms-pager-next').click();
    await expect.poll(names, { timeout: WAIT_MS }).toContain(oldest.room);
    await expectText(
      admin.byTestId('sa-rooms-pager-status'),
      `51–${ROWS} of ${ROWS} rooms · page 2 of 2`,
      'the second page',
    );

    await admin.byTestId('sa-room-status-filter').selectOption('expired');
    await expect.poll(() => rows.count(), { timeout: WAIT_MS }).toBe(0);
    await expectText(admin.byTestId('sa-rooms-expired'), '0', 'no expired room');
  });
});
