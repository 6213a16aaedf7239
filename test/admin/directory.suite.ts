/**
 * The directory part of the superadmin dashboard (docs/product/admin.md ADM4-ADM7), run
 * in both modes by harness.ts: the users list and its search, the admin trial, suspension, deletion, the CSV export,
 * and a fuzz of every directory route. Rooms and the moderation viewer: directory.rooms.ts.
 * Every action is checked in the list the dashboard reloads right after it (the route answers once it shows).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ADMIN_API, ADMIN_TEXT, API, AUTH_API, ERRORS } from '@ephemera/proto';
import { http, uniqueName } from '../helpers/clients.ts';
import { bearer, mailedCode, uniqueEmail, type AccountTarget } from '../accounts/account-clients.ts';
import type { AdminTarget } from './target.ts';
import { directoryClient } from './directory.client.ts';
import { roomsDirectoryTests } from './directory.rooms.ts';
import { pagedDirectoryTests } from './directory.pages.ts';

const DAY_MS = 86_400_000;

export function directorySuite(target: () => AdminTarget) {
  describe('directory', () => {
    const accountTarget = () => ({ url: target().url, mail: target().mail }) as unknown as AccountTarget;

    it('lists accounts newest first with tier, status and badges, never the superadmin; searches e-mail and username', async () => {
      const t = target();
      const d = directoryClient(t);
      const first = await t.signIn(uniqueEmail('listed-a'), 'zebra-finch');
      const second = await t.signIn(uniqueEmail('listed-b'), 'quokka');
      const shown = await d.listed(second.email);
      await d.listed(first.email);
      expect(shown).toMatchObject({
        email: second.email,
        username: 'quokka',
        subscriptionTier: 'free',
        upgradedByAdmin: false,
        paymentStatus: 'active',
        suspended: false,
        suspendedReason: null,
        trialEndsAt: null,
      });
      const all = await d.users();
      expect(all.length).toBeLessThanOrEqual(50);
      const emails = all.map((u) => u.email);
      expect(emails.indexOf(second.email)).toBeLessThan(emails.indexOf(first.email)); // newest first
      expect(emails).not.toContain(t.superadminEmail);
      expect(await d.users(t.superadminEmail)).toEqual([]);
      expect((await d.users('zebra-fin')).map((u) => u.email)).toEqual([first.email]);
      expect((await d.users(second.email.toUpperCase())).map((u) => u.email)).toEqual([second.email]);
      expect(await d.users('%%%')).toEqual([]); // the user's % is a character, not a wildcard
      expect((await d.call(`${ADMIN_API.users}?search=a&search=b`, 'GET')).status).toBe(400);
    });

    it('admin upgrade: a 30-day pro trial with the Admin Trial badge, the rooms take the tier; ending it early goes back to free', async () => {
      const t = target();
      const d = directoryClient(t);
      const u = await t.signIn(uniqueEmail('trial'), 'trialist');
      const room = await d.dashboardRoom(u.token);
      await d.listed(u.email);
      for (const body of [{ tier: 'free', days: 30 }, { tier: 'pro', days: 31 }, { tier: 'enterprise' }, {}]) {
        expect((await d.call(ADMIN_API.adminUpgrade(u.email), 'POST', body)).status, JSON.stringify(body)).toBe(400);
      }
      const before = Date.now();
      const res = await d.call(ADMIN_API.adminUpgrade(u.email), 'POST', { tier: 'pro', days: 30 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const listed = (await d.user(u.email))!;
      expect(listed).toMatchObject({ subscriptionTier: 'pro', upgradedByAdmin: true });
      expect(Math.abs(new Date(listed.trialEndsAt!).getTime() - (before + 30 * DAY_MS))).toBeLessThan(60_000);
      const profile = await d.profile(u.token);
      expect(profile.body.user.subscriptionTier).toBe('pro');
      expect(profile.body.rooms.find((r) => r.workspaceId === room.workspaceId)?.tier).toBe('pro');
      expect((await d.lookup(room.name)).body.tier).toBe('pro');

      expect(
        (await d.call(ADMIN_API.adminUpgrade(uniqueEmail('nobody')), 'POST', { tier: 'pro', days: 30 })).body.code,
      ).toBe('USER_NOT_FOUND');
      expect((await d.call(ADMIN_API.adminUpgrade(t.superadminEmail), 'POST', { tier: 'pro', days: 30 })).status).toBe(
        403,
      );

      // PUT subscription: paid tiers and provider fields are refused; {subscriptionTier: 'free'} ends the trial
      for (const body of [
        { subscriptionTier: 'business' },
        { subscriptionTier: 'free', paymentStatus: 'active' },
        { paymentStatus: 'cancelled' },
      ]) {
        expect((await d.call(ADMIN_API.userSubscription(u.email), 'PUT', body)).status, JSON.stringify(body)).toBe(400);
      }
      expect((await d.user(u.email))!.subscriptionTier).toBe('pro');
      expect((await d.call(ADMIN_API.userSubscription(u.email), 'PUT', { subscriptionTier: 'free' })).status).toBe(200);
      expect(await d.user(u.email)).toMatchObject({
        subscriptionTier: 'free',
        upgradedByAdmin: false,
        trialEndsAt: null,
      });
      expect((await d.profile(u.token)).body.user.subscriptionTier).toBe('free');
      expect((await d.lookup(room.name)).body.tier).toBe('free');
      expect((await d.call(ADMIN_API.userSubscription(u.email), 'PUT', { subscriptionTier: 'free' })).status).toBe(400); // no trial left
    });

    it("suspend needs a reason, blocks sign-in and the dashboard's rooms (sessions revoked); unsuspend restores", async () => {
      const t = target();
      const d = directoryClient(t);
      const u = await t.signIn(uniqueEmail('suspended'), 'rulebreaker');
      const room = await d.dashboardRoom(u.token);
      await d.listed(u.email);
      for (const body of [{ suspended: true }, { suspended: true, reason: '   ' }]) {
        const refused = await d.call(ADMIN_API.suspendUser(u.email), 'POST', body);
        expect(refused.status).toBe(400);
        expect(refused.body.message).toBe(ADMIN_TEXT.reasonRequired);
      }
      expect((await d.profile(u.token)).status).toBe(200); // nothing changed
      expect((await d.call(ADMIN_API.suspendUser(u.email), 'POST', { suspended: true, reason: 'spam' })).status).toBe(
        200,
      );
      expect(await d.user(u.email)).toMatchObject({ suspended: true, suspendedReason: 'spam' });
      expect((await d.profile(u.token)).status).toBe(401); // every session revoked
      expect((await d.lookup(room.name, u.token)).body.ownerToken).toBeUndefined();
      const created = await http(t.url, API.create(), {
        body: { name: uniqueName('susp'), username: 'x' },
        headers: bearer(u.token),
      });
      expect(created.status).toBe(401);
      for (const path of [AUTH_API.login, AUTH_API.register]) {
        const code = await mailedCode(accountTarget(), u.email);
        const signIn = await http(t.url, path, { body: { email: u.email, username: 'rulebreaker', code } });
        expect(signIn.status, path).toBe(403);
        expect(signIn.body).toMatchObject({ code: 'ACCOUNT_SUSPENDED', message: ERRORS.ACCOUNT_SUSPENDED });
      }
      expect(
        (await d.call(ADMIN_API.suspendUser(t.superadminEmail), 'POST', { suspended: true, reason: 'x' })).status,
      ).toBe(403);

      expect((await d.call(ADMIN_API.suspendUser(u.email), 'POST', { suspended: false })).status).toBe(200);
      expect(await d.user(u.email)).toMatchObject({ suspended: false, suspendedReason: null });
      const back = await t.signIn(u.email, 'rulebreaker');
      expect((await d.profile(back.token)).status).toBe(200);
      expect((await d.lookup(room.name, back.token)).body.ownerToken).toEqual(expect.any(String));
    });

    it('delete needs a reason and changes nothing without one; with one the account, its sessions and its rooms are gone', async () => {
      const t = target();
      const d = directoryClient(t);
      const u = await t.signIn(uniqueEmail('deleted'), 'leaving');
      const room = await d.dashboardRoom(u.token);
      await d.listed(u.email);
      for (const body of [undefined, {}, { reason: '' }, { reason: 42 }]) {
        const refused = await d.call(ADMIN_API.user(u.email), 'DELETE', body);
        expect(refused.status).toBe(400);
        expect(refused.body.message).toBe(ADMIN_TEXT.reasonRequired);
      }
      expect((await d.profile(u.token)).status).toBe(200);
      expect(await d.user(u.email)).toBeDefined();
      expect((await d.call(ADMIN_API.user(t.superadminEmail), 'DELETE', { reason: 'no' })).status).toBe(403);
      expect((await d.call(ADMIN_API.user(uniqueEmail('ghost')), 'DELETE', { reason: 'x' })).body.code).toBe(
        'USER_NOT_FOUND',
      );

      const res = await d.call(ADMIN_API.user(u.email), 'DELETE', { reason: 'requested by e-mail' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.deletedRooms).toEqual([room.workspaceId]);
      expect(await d.user(u.email)).toBeUndefined();
      expect((await d.profile(u.token)).status).toBe(401);
      expect((await d.lookup(room.name)).status).toBe(404);
      const rooms = await d.call(`${ADMIN_API.rooms}?search=${encodeURIComponent(room.name)}`, 'GET');
      expect(rooms.body.rooms).toEqual([]);
    });

    it('exports the users as a CSV download (no superadmin, formula cells defused), audited', async () => {
      const t = target();
      const d = directoryClient(t);
      const u = await t.signIn(uniqueEmail('csv'), '=HYPERLINK("x")');
      await d.listed(u.email);
      const res = await fetch(t.url + ADMIN_API.export('users'), { headers: bearer(t.adminToken) });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(res.headers.get('content-disposition')).toMatch(
        /^attachment; filename="users-export-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const csv = await res.text();
      const [header, ...lines] = csv.trim().split('\n');
      expect(header).toBe(
        'email,username,subscriptionTier,upgradedByAdmin,trialEndsAt,paymentStatus,suspended,suspendedReason,createdAt,lastActiveAt',
      );
      const mine = lines.find((l) => l.startsWith(`${u.email},`));
      expect(mine).toContain('"\'=HYPERLINK(""x"")"'); // quoted by the CSV writer, the formula prefixed with an apostrophe
      expect(csv).not.toContain(t.superadminEmail);
      expect((await d.call('/api/admin/export/passwords', 'GET')).status).toBe(400);
      const audit = await d.call(ADMIN_API.audit, 'GET');
      const entries = (Array.isArray(audit.body) ? audit.body : audit.body.entries) as Array<{
        action: string;
        target: string | null;
      }>;
      expect(entries.some((e) => e.action === 'export.downloaded' && e.target === 'users')).toBe(true);
    });

    roomsDirectoryTests(target);
    pagedDirectoryTests(target);

    it('fuzz: random bodies, queries and path segments on every directory route get a clear 4xx or an answer, never a 500', async () => {
      const t = target();
      const d = directoryClient(t);
      const routes = [
        ['GET', () => ADMIN_API.users],
        ['DELETE', ADMIN_API.user],
        ['POST', ADMIN_API.suspendUser],
        ['PUT', ADMIN_API.userSubscription],
        ['POST', ADMIN_API.adminUpgrade],
        ['GET', () => ADMIN_API.rooms],
        ['DELETE', ADMIN_API.room],
        ['POST', ADMIN_API.extendRoom],
        ['GET', (s: string) => ADMIN_API.roomMessages(s)],
        ['GET', () => '/api/admin/export/users'],
      ] as const;
      const anyJson = fc.oneof(
        fc.jsonValue(),
        fc.dictionary(
          fc.constantFrom(
            'reason',
            'suspended',
            'tier',
            'days',
            'hours',
            'subscriptionTier',
            'paymentStatus',
            '__proto__',
          ),
          fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string()), fc.object()),
        ),
      );
      const segment = fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.emailAddress(),
        fc.constant('%E0%A4%A'),
        fc.constant(''),
      );
      const query = fc.oneof(
        fc.constant(''),
        fc.string({ maxLength: 30 }).map((s) => `?search=${encodeURIComponent(s)}&limit=${encodeURIComponent(s)}`),
        fc.constant('?search[a]=1&limit=-1'),
        fc.constant('?limit=51'),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...routes), anyJson, segment, query, async ([method, path], body, seg, q) => {
          const url = (path as (s: string) => string)(seg || 'x').replace(/\?.*$/, '') + q;
          const res = await d.call(url, method, method === 'GET' ? undefined : body);
          expect(res.status, `${method} ${url} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
        }),
        { numRuns: 200 },
      );
      for (const [method, raw] of [
        ['DELETE', '/api/admin/users/%E0%A4%A'],
        ['POST', '/api/admin/rooms/%E0%A4%A/extend'],
        ['GET', '/api/admin/rooms/%/messages'],
      ]) {
        expect(
          (await d.call(raw, method, method === 'GET' ? undefined : { reason: 'x', hours: 168 })).status,
          raw,
        ).toBe(400); // malformed percent-encoding
      }
      expect((await d.users()).length).toBeGreaterThan(0);
    });
  });
}
