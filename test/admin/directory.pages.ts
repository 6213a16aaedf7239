/**
 * The Users and Rooms lists over every row (docs/product/admin.md ADM4, ADM6; docs/administration.md, "Searching
 * sealed accounts"): with 120 accounts and 120 rooms, more than a page of 50, the server's search (a part of a sealed
 * e-mail or username, a room's name or a part of its owner's e-mail), the filters and the totals count every row, and
 * the pages together give each row once. Bad queries are refused with a clear 400. Part of directory.suite.ts.
 */
import { it, expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ADMIN_API, type AdminRoomsPage, type AdminUsersPage } from '@ephemera/proto';
import { createRoom } from '../helpers/clients.ts';
import { uniqueEmail } from '../accounts/account-clients.ts';
import type { AdminTarget } from './target.ts';
import { directoryClient } from './directory.client.ts';

const ROWS = 120;

/** runs `work` for 0..n-1, `width` at a time */
async function inParallel(n: number, width: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

export function pagedDirectoryTests(target: () => AdminTarget) {
  const query = (params: Record<string, string | number>) =>
    `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
  const page = async <T>(t: AdminTarget, path: string, params: Record<string, string | number>): Promise<T> => {
    const res = await directoryClient(t).call(`${path}${query(params)}`, 'GET');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as T;
  };
  /** every page of a search, in order (the directory is a projection: polled until it shows `rows` rows) */
  const everyPage = async <T extends { total: number }>(
    t: AdminTarget,
    path: string,
    params: Record<string, string | number>,
    rows: number,
  ) => {
    await expect
      .poll(async () => (await page<T>(t, path, params)).total, { timeout: 60_000, interval: 250 })
      .toBe(rows);
    const pages: T[] = [];
    for (let n = 1; n <= Math.ceil(rows / 50) + 1; n++) pages.push(await page<T>(t, path, { ...params, page: n }));
    return pages;
  };

  it(
    'users: search, tier filter, totals and pages cover every account, not only the first 50 (ADM4)',
    { timeout: 240_000 },
    async () => {
      const t = target();
      const d = directoryClient(t);
      const tag = `pg${randomBytes(4).toString('hex')}`;
      // the oldest of them first, so that it is the last row of the newest-first list
      const oldest = await t.signIn(uniqueEmail(`${tag}-oldest`), `${tag}Oldest`);
      const emails = [oldest.email];
      await inParallel(ROWS - 1, 6, async (i) => {
        emails.push((await t.signIn(uniqueEmail(`${tag}-${i}`), `member${i}`)).email);
      });
      for (const [email, tier] of [
        [emails[10]!, 'pro'],
        [emails[20]!, 'pro'],
        [oldest.email, 'business'],
      ] as const) {
        expect((await d.call(ADMIN_API.adminUpgrade(email), 'POST', { tier, days: 30 })).status).toBe(200);
      }

      const pages = await everyPage<AdminUsersPage>(t, ADMIN_API.users, { search: tag }, ROWS);
      expect(pages.map((p) => p.users.length)).toEqual([50, 50, 20, 0]);
      const listed = pages.flatMap((p) => p.users.map((u) => u.email));
      expect(new Set(listed).size).toBe(ROWS);
      expect([...listed].sort()).toEqual([...emails].sort());
      expect(listed.at(-1)).toBe(oldest.email); // newest first: the oldest is on the last page
      expect(pages[0]!.totals).toEqual({
        total: ROWS,
        byTier: { free: ROWS - 3, pro: 2, business: 1 },
        byStatus: { active: ROWS, past_due: 0, cancelled: 0 },
      });
      expect(pages[0]).toMatchObject({ page: 1, pageSize: 50, total: ROWS });

      // the oldest account, found by a part of its sealed username, by a part of its sealed e-mail (any case)
      const byName = await page<AdminUsersPage>(t, ADMIN_API.users, { search: `${tag}OLD` });
      expect(byName.users.map((u) => u.email)).toEqual([oldest.email]);
      expect(byName.total).toBe(1);
      expect(
        (await page<AdminUsersPage>(t, ADMIN_API.users, { search: oldest.email.slice(0, -8).toUpperCase() })).users.map(
          (u) => u.email,
        ),
      ).toEqual([oldest.email]);
      // filters
      const pro = await page<AdminUsersPage>(t, ADMIN_API.users, { search: tag, tier: 'pro' });
      expect(pro.users.map((u) => u.email).sort()).toEqual([emails[10], emails[20]].sort());
      expect(pro.total).toBe(2);
      expect(pro.totals.total).toBe(ROWS); // the cards count the whole search
      expect(
        (await page<AdminUsersPage>(t, ADMIN_API.users, { search: tag, tier: 'business', status: 'active' })).users.map(
          (u) => u.email,
        ),
      ).toEqual([oldest.email]);
      expect((await page<AdminUsersPage>(t, ADMIN_API.users, { search: tag, status: 'past_due' })).total).toBe(0);
      // a smaller page size
      const small = await page<AdminUsersPage>(t, ADMIN_API.users, { search: tag, pageSize: 7, page: 18 });
      expect(small.users.map((u) => u.email)).toEqual(listed.slice(119, 126));

      // no search: the totals are every account's, the superadmin's own left out
      const everyone = await page<AdminUsersPage>(t, ADMIN_API.users, { pageSize: 1 });
      expect(everyone.total).toBeGreaterThan(ROWS);
      expect(everyone.totals.total).toBe(everyone.total);
      // the report's user figures leave the superadmin out as the list does (its stored address is sealed)
      const report = await d.call(ADMIN_API.report, 'GET');
      expect([report.body.users.total, report.body.users.byTier]).toEqual([
        everyone.totals.total,
        everyone.totals.byTier,
      ]);
    },
  );

  it(
    "rooms: search by name or a part of the owner's e-mail, status filter, totals and pages cover every room (ADM6)",
    { timeout: 240_000 },
    async () => {
      const t = target();
      const d = directoryClient(t);
      const tag = `rp${randomBytes(4).toString('hex')}`;
      const owner = await t.signIn(uniqueEmail(`${tag}owner`), 'owner');
      const owned = await d.dashboardRoom(owner.token); // the oldest: beyond the first 50 of the list
      const names: string[] = [];
      await inParallel(ROWS, 6, async (i) => {
        const name = `${tag}-room-${i}`;
        await createRoom(t.url, name, 'alice');
        names.push(name);
      });

      const pages = await everyPage<AdminRoomsPage>(t, ADMIN_API.rooms, { search: `${tag}-room` }, ROWS);
      expect(pages.map((p) => p.rooms.length)).toEqual([50, 50, 20, 0]);
      const listed = pages.flatMap((p) => p.rooms.map((r) => r.name));
      expect([...listed].sort()).toEqual([...names].sort());
      expect(pages[0]!.totals).toEqual({ total: ROWS, active: ROWS, expired: 0, users: ROWS });
      expect((await page<AdminRoomsPage>(t, ADMIN_API.rooms, { search: `${tag}-room`, status: 'active' })).total).toBe(
        ROWS,
      );
      const expired = await page<AdminRoomsPage>(t, ADMIN_API.rooms, { search: `${tag}-room`, status: 'expired' });
      expect([expired.total, expired.rooms.length, expired.totals.total]).toEqual([0, 0, ROWS]);

      // the owned room, older than all of them: by a part of its owner's sealed e-mail, upper-cased
      await expect
        .poll(
          async () =>
            (await page<AdminRoomsPage>(t, ADMIN_API.rooms, { search: `${tag}OWNER` })).rooms.map((r) => [
              r.name,
              r.owner,
            ]),
          { timeout: 15_000, interval: 100 },
        )
        .toEqual([[owned.name, owner.email]]);
      const everyRoom = await page<AdminRoomsPage>(t, ADMIN_API.rooms, {});
      expect(everyRoom.total).toBeGreaterThan(ROWS);
      expect(everyRoom.rooms).toHaveLength(50);
      expect(everyRoom.totals.total).toBe(everyRoom.total);
    },
  );

  it('a bad list query is refused with a clear 400 and lists nothing', async () => {
    const t = target();
    const d = directoryClient(t);
    const refused: Array<[string, string]> = [
      [`${ADMIN_API.users}?page=0`, 'The page is a whole number from 1 to 100000'],
      [`${ADMIN_API.users}?page=abc`, 'The page is a whole number from 1 to 100000'],
      [`${ADMIN_API.users}?pageSize=51`, 'The page size is a whole number from 1 to 50'],
      [`${ADMIN_API.users}?tier=gold`, 'The tier filter is one of free, pro, business'],
      [`${ADMIN_API.users}?status=expired`, 'The status filter is one of active, past_due, cancelled'],
      [`${ADMIN_API.users}?search=ab`, 'Search e-mails and usernames with at least 3 characters'],
      [`${ADMIN_API.users}?search=a&search=b`, 'Search with one text'],
      [`${ADMIN_API.users}?sort=email`, 'The list takes only search, tier, status, page and pageSize'],
      [`${ADMIN_API.rooms}?status=paused`, 'The status filter is one of active, expired'],
      [`${ADMIN_API.rooms}?pageSize=0`, 'The page size is a whole number from 1 to 50'],
      [`${ADMIN_API.rooms}?search=${'x'.repeat(101)}`, 'Search with at most 100 characters'],
      [`${ADMIN_API.rooms}?tier=pro`, 'The list takes only search, status, page and pageSize'],
    ];
    for (const [path, message] of refused) {
      const res = await d.call(path, 'GET');
      expect([res.status, res.body.code, res.body.message, res.body.users ?? res.body.rooms], path).toEqual([
        400,
        'VALIDATION',
        message,
        undefined,
      ]);
    }
  });
}
