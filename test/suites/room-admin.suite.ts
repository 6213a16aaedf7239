/**
 * Room administration (docs/product/rooms.md R21-R36) over the real protocol, A and B on different gateway
 * replicas in distributed mode: rename, password, member cap, extension, tier changes and themes here; kick, roles
 * and deletion in room-admin.members.ts. Each event: the success path, what the others see, the refusal for each
 * role the table refuses, and bad input (VALIDATION, nothing changes).
 */
import { describe, it, expect, afterEach } from 'vitest';
import {
  API,
  C,
  ERRORS,
  INTERNAL,
  LINK_PREVIEW_IMAGE_PATH,
  S,
  type RoomTheme,
  type Tier,
  type WorkspaceUpdate,
} from '@ephemera/proto';
import { collect, createRoom, http, next, request, socketJoin, uniqueName } from '../helpers/clients.ts';
import type { TargetRef } from './target-ref.ts';
import { TestRoom, expectRefused, type Person } from './channels.setup.ts';
import { roomAdminMemberTests } from './room-admin.members.ts';

const HOUR = 60 * 60 * 1000;

export function roomAdminSuite(target: TargetRef) {
  describe('room administration', () => {
    const open: TestRoom[] = [];
    const room = async (names: string[] = ['bob', 'carol']) => {
      const r = await TestRoom.open(target, names);
      open.push(r);
      return r;
    };
    afterEach(() => {
      while (open.length) open.pop()!.close();
    });
    const changeTier = async (workspaceId: string, tier: Tier) => {
      const t = target();
      if (!t.changeTier) throw new Error('this target cannot change tiers');
      await t.changeTier(workspaceId, tier);
    };
    /** The owner makes a member an admin (set-member-role). */
    const promote = async (r: TestRoom, who: Person) => {
      const ack = await request(r.owner.socket, C.setMemberRole, {
        workspaceId: r.workspaceId,
        userId: who.id,
        isAdmin: true,
      });
      if (!ack.success) throw new Error(`promote failed: ${ack.message}`);
    };
    const lookup = (name: string) => http(target().A, API.roomByName(name));

    it('rename-workspace: the owner or an admin renames; everyone gets workspace-updated; the new name resolves, the old one stops', async () => {
      const r = await room();
      const [bob, carol] = r.members;
      const before = await nameOf(r);
      const newName = uniqueName('renamed');
      const seen = next<WorkspaceUpdate>(bob.socket, S.workspaceUpdated);
      const ack = await request(r.owner.socket, C.renameWorkspace, { workspaceId: r.workspaceId, newName });
      expect(ack.success, JSON.stringify(ack)).toBe(true);
      if (ack.success) expect(ack.workspace).toMatchObject({ workspaceId: r.workspaceId, name: newName, tier: 'free' });
      expect(await seen).toMatchObject({
        workspaceId: r.workspaceId,
        name: newName,
        isPasswordProtected: false,
        settings: { maxUsers: 5 },
      });
      expect((await lookup(newName)).body.workspaceId).toBe(r.workspaceId);
      expect((await lookup(before)).status).toBe(404);
      expect((await http(target().A, API.checkName(before))).body.available).toBe(true);

      await promote(r, carol);
      const third = uniqueName('admin-named');
      expect(
        (await request(carol.socket, C.renameWorkspace, { workspaceId: r.workspaceId, newName: third })).success,
      ).toBe(true);
      expect((await lookup(third)).body.workspaceId).toBe(r.workspaceId);
    });

    it('rename-workspace: a member is refused; taken, reserved, invalid and too long names are refused and change nothing', async () => {
      const r = await room();
      const [bob] = r.members;
      const name = await nameOf(r);
      const other = await createRoom(target().A);
      const updates = collect(r.owner.socket, S.workspaceUpdated);
      expectRefused(
        await request(bob.socket, C.renameWorkspace, { workspaceId: r.workspaceId, newName: uniqueName() }),
        'FORBIDDEN',
      );
      expectRefused(
        await request(r.owner.socket, C.renameWorkspace, {
          workspaceId: r.workspaceId,
          newName: other.name.toUpperCase(),
        }),
        'ROOM_NAME_TAKEN',
      );
      expectRefused(
        await request(r.owner.socket, C.renameWorkspace, { workspaceId: r.workspaceId, newName: 'login' }),
        'ROOM_NAME_RESERVED',
      );
      expectRefused(
        await request(r.owner.socket, C.renameWorkspace, { workspaceId: r.workspaceId, newName: 'has space' }),
        'ROOM_NAME_INVALID',
      );
      expectRefused(
        await request(r.owner.socket, C.renameWorkspace, { workspaceId: r.workspaceId, newName: 'x'.repeat(51) }),
        'VALIDATION',
      );
      expectRefused(
        await request(r.owner.socket, C.renameWorkspace, { workspaceId: r.workspaceId, newName: 42 }),
        'VALIDATION',
      );
      expectRefused(
        await request(r.owner.socket, C.renameWorkspace, { workspaceId: other.workspaceId, newName: uniqueName() }),
        'FORBIDDEN',
      );
      await r.roomBarrier([r.owner.socket]);
      expect(updates).toEqual([]);
      expect((await lookup(name)).body.workspaceId).toBe(r.workspaceId);
      expect((await lookup(other.name)).body.workspaceId).toBe(other.workspaceId);
    });

    it('set-workspace-password: set (new joins need it, members inside stay), then removed with null; a member is refused', async () => {
      const r = await room(['bob']);
      const [bob] = r.members;
      const seen = next<WorkspaceUpdate>(bob.socket, S.workspaceUpdated);
      const set = await request(r.owner.socket, C.setWorkspacePassword, {
        workspaceId: r.workspaceId,
        password: '  hunter22  ',
      });
      expect(set.success && set.workspace.isPasswordProtected).toBe(true);
      expect((await seen).isPasswordProtected).toBe(true);
      expect((await http(target().B, API.info(r.workspaceId))).body.isPasswordProtected).toBe(true);
      expect((await http(target().B, API.join(r.workspaceId), { body: { username: 'dave' } })).body.code).toBe(
        'PASSWORD_REQUIRED',
      );
      expect(
        (await http(target().B, API.join(r.workspaceId), { body: { username: 'dave', password: 'wrong' } })).body.code,
      ).toBe('PASSWORD_WRONG');
      expect(
        (await http(target().B, API.join(r.workspaceId), { body: { username: 'dave', password: 'hunter22' } })).status,
      ).toBe(200);
      expect((await r.freshJoin(bob)).success).toBe(true); // members already inside stay

      expectRefused(
        await request(bob.socket, C.setWorkspacePassword, { workspaceId: r.workspaceId, password: null }),
        'FORBIDDEN',
      );
      expectRefused(
        await request(r.owner.socket, C.setWorkspacePassword, { workspaceId: r.workspaceId, password: 'p'.repeat(51) }),
        'VALIDATION',
      );
      // A new password has at least 6 characters (after trimming), set or created; nothing changes otherwise.
      expectRefused(
        await request(r.owner.socket, C.setWorkspacePassword, { workspaceId: r.workspaceId, password: '  12345  ' }),
        'PASSWORD_TOO_SHORT',
      );
      expect(
        (await http(target().B, API.join(r.workspaceId), { body: { username: 'quinn', password: 'hunter22' } })).status,
      ).toBe(200);
      const short = await http(target().A, API.create(), {
        body: { name: uniqueName('short'), username: 'alice', password: 'abc', hasPassword: true },
      });
      expect(short.status).toBe(400);
      expect(short.body).toEqual({
        success: false,
        code: 'PASSWORD_TOO_SHORT',
        message: 'Password must be at least 6 characters',
      });
      expect((await http(target().A, API.info(r.workspaceId))).body.isPasswordProtected).toBe(true);

      const removed = next<WorkspaceUpdate>(bob.socket, S.workspaceUpdated);
      const off = await request(r.owner.socket, C.setWorkspacePassword, { workspaceId: r.workspaceId, password: null });
      expect(off.success && off.workspace.isPasswordProtected).toBe(false);
      expect((await removed).isPasswordProtected).toBe(false);
      expect((await http(target().B, API.join(r.workspaceId), { body: { username: 'erin' } })).status).toBe(200);
    });

    it('set-workspace-max-users: refused on free; numbers on pro, "unlimited" on business; a join over the cap is refused', async () => {
      const r = await room(['bob']);
      const [bob] = r.members;
      const set = (maxUsers: unknown, by: Person = r.owner) =>
        request(by.socket, C.setWorkspaceMaxUsers, { workspaceId: r.workspaceId, maxUsers });
      expectRefused(await set(10), 'MAX_USERS_NOT_IN_TIER', ERRORS.MAX_USERS_NOT_IN_TIER);
      for (const bad of [1, 2.5, 'lots', '', -3])
        expectRefused(await set(bad), 'VALIDATION', 'Please enter a number 2 or higher, or "unlimited"');

      const upgraded = next<WorkspaceUpdate>(bob.socket, S.workspaceUpdated);
      await changeTier(r.workspaceId, 'pro');
      expect(await upgraded).toMatchObject({ tier: 'pro', settings: { tier: 'pro', maxUsers: 25 } });
      expectRefused(await set('Unlimited'), 'UNLIMITED_USERS_NOT_IN_TIER');
      expectRefused(await set(3, bob), 'FORBIDDEN');
      expectRefused(
        await set(26),
        'MAX_USERS_ABOVE_TIER',
        'Your plan allows up to 25 users: upgrade to Business for more',
      );
      const capped = next<WorkspaceUpdate>(bob.socket, S.workspaceUpdated);
      const ack = await set(3);
      expect(ack.success && ack.workspace.settings).toMatchObject({ maxUsers: 3, customMaxUsers: 3 });
      expect((await capped).settings.maxUsers).toBe(3);
      expect((await http(target().A, API.info(r.workspaceId))).body.settings.maxUsers).toBe(3);
      expect((await http(target().B, API.join(r.workspaceId), { body: { username: 'carol' } })).status).toBe(200);
      const full = await http(target().B, API.join(r.workspaceId), { body: { username: 'dave' } });
      expect(full.status).toBe(403);
      expect(full.body.code).toBe('ROOM_FULL');

      await changeTier(r.workspaceId, 'business');
      const unlimited = await set('unlimited');
      expect(unlimited.success && unlimited.workspace.settings.maxUsers).toBe(null);
      expect((await http(target().B, API.join(r.workspaceId), { body: { username: 'dave' } })).status).toBe(200);
    });

    it('extend-workspace: free needs payment, pro extends from the current expiry, business never expires; admins are refused', async () => {
      const r = await room(['bob']);
      const [bob] = r.members;
      const extend = (additionalHours: unknown, by: Person = r.owner) =>
        request(by.socket, C.extendWorkspace, { workspaceId: r.workspaceId, additionalHours });
      expectRefused(await extend(168), 'EXTENSION_NEEDS_PAYMENT', ERRORS.EXTENSION_NEEDS_PAYMENT);
      await changeTier(r.workspaceId, 'pro');
      const before = Date.parse((await http(target().A, API.info(r.workspaceId))).body.expiresAt);
      for (const bad of [100, 0, '168', null]) expectRefused(await extend(bad), 'VALIDATION');
      await promote(r, bob);
      expectRefused(await extend(168, bob), 'FORBIDDEN');
      const seen = next<WorkspaceUpdate>(
        bob.socket,
        S.workspaceUpdated,
        (u) => u.expiresAt !== null && Date.parse(u.expiresAt) > before,
      );
      const ack = await extend(168);
      expect(ack.success, JSON.stringify(ack)).toBe(true);
      if (ack.success) expect(Date.parse(ack.workspace.expiresAt!)).toBe(before + 168 * HOUR);
      expect(Date.parse((await seen).expiresAt!)).toBe(before + 168 * HOUR);

      // POST /api/workspaces/extend-room: the owner by bearer token (the body's userEmail names nobody)
      const res = await http(target().B, API.extendRoom(), {
        body: { workspaceId: r.workspaceId, userEmail: 'someone-else@example.com', extensionDays: 30 },
        headers: { authorization: `Bearer ${r.owner.token}` },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        success: true,
        workspaceId: r.workspaceId,
        message: 'Room extended successfully for 30 days!',
      });
      expect(Date.parse(res.body.expiresAt)).toBe(before + (168 + 720) * HOUR);
      const badBody = await http(target().B, API.extendRoom(), {
        body: { workspaceId: r.workspaceId, extensionDays: 9 },
        headers: { authorization: `Bearer ${r.owner.token}` },
      });
      expect(badBody.status).toBe(400);

      await changeTier(r.workspaceId, 'business');
      expect((await http(target().A, API.info(r.workspaceId))).body.expiresAt).toBe(null);
      expectRefused(await extend(720), 'NEVER_EXPIRES');
    });

    it('broadcast-theme: a theme of the tier reaches the room and new joiners; others are refused until the tier includes them', async () => {
      const r = await room(['bob', 'carol']);
      const [bob, carol] = r.members;
      const theme = (themeId: unknown, by: Person = r.owner, customTheme?: unknown) =>
        request(by.socket, C.broadcastTheme, { workspaceId: r.workspaceId, themeId, customTheme });
      const seen = next(bob.socket, S.themeChanged);
      const dark = await theme('dark');
      expect(dark.success && dark.theme).toMatchObject({
        themeId: 'dark',
        changedBy: r.owner.id,
        changedByName: 'alice',
        customTheme: null,
        logoSrc: null,
      });
      expect(await seen).toMatchObject({
        workspaceId: r.workspaceId,
        themeId: 'dark',
        changedBy: r.owner.id,
        changedByName: 'alice',
        logoSrc: null,
      });
      const joined = await r.freshJoin(carol);
      expect(joined.success && joined.workspace.theme).toMatchObject({ themeId: 'dark', changedByName: 'alice' });

      const observed = collect(bob.socket, S.themeChanged);
      expectRefused(await theme('sunset'), 'THEME_NOT_IN_TIER', ERRORS.THEME_NOT_IN_TIER);
      expectRefused(await theme('whatsapp', bob), 'FORBIDDEN');
      expectRefused(await theme('neon'), 'VALIDATION');
      await r.roomBarrier([bob.socket]);
      expect(observed).toEqual([]);

      await changeTier(r.workspaceId, 'pro');
      await promote(r, carol);
      expect((await theme('sunset', carol)).success).toBe(true); // an admin broadcasts too
      expectRefused(await theme('custom'), 'THEME_NOT_IN_TIER');
      await changeTier(r.workspaceId, 'business');
      expectRefused(await theme('custom'), 'CUSTOM_THEME_REQUIRED');
      const custom = {
        primaryColor: '#112233',
        sentMessageColor: '#DCF8C6',
        receivedMessageColor: '#FFFFFF',
        sentTextColor: '#000000',
        receivedTextColor: '#000000',
        chatBackgroundColor: '#F9FAFB',
        logoUrl: '',
        fontFamily: 'Inter',
      };
      expectRefused(await theme('custom', r.owner, { ...custom, primaryColor: 'red' }), 'VALIDATION');
      expectRefused(await theme('custom', r.owner, { ...custom, logoUrl: 'javascript:alert(1)' }), 'VALIDATION');
      const customSeen = next(bob.socket, S.themeChanged, (p: { themeId: string }) => p.themeId === 'custom');
      expect((await theme('custom', r.owner, custom)).success).toBe(true);
      expect(await customSeen).toMatchObject({ customTheme: custom, logoSrc: null }); // no logo: nothing to load
    });

    it('broadcast-theme: the custom logo reaches members only as a server-signed image-proxy path that the image route honours', async () => {
      const r = await room(['bob', 'carol']);
      const [bob, carol] = r.members;
      await changeTier(r.workspaceId, 'business');
      // A loopback address: the proxy's fetcher refuses it (SSRF), so a signature it honours gives 422, never a fetch.
      const logoUrl = 'https://127.0.0.1/brand/logo.png';
      const customTheme = {
        primaryColor: '#112233',
        sentMessageColor: '#DCF8C6',
        receivedMessageColor: '#FFFFFF',
        sentTextColor: '#000000',
        receivedTextColor: '#000000',
        chatBackgroundColor: '#F9FAFB',
        logoUrl,
        fontFamily: 'Inter',
      };
      const seen = next<RoomTheme>(bob.socket, S.themeChanged, (p) => p.themeId === 'custom');
      // A client cannot choose the path: a logoSrc it sends is not taken.
      const ack = await request(r.owner.socket, C.broadcastTheme, {
        workspaceId: r.workspaceId,
        themeId: 'custom',
        customTheme,
        logoSrc: '/evil',
      });
      const event = await seen;
      const logoSrc = event.logoSrc ?? '';
      // Same-origin (img-src 'self'): a path of our image route naming exactly this logo, with a signature.
      const src = new URL(logoSrc, 'http://same.origin');
      expect(logoSrc.startsWith(`${LINK_PREVIEW_IMAGE_PATH}?`)).toBe(true);
      expect([...src.searchParams.keys()]).toEqual(['u', 's']);
      expect(src.searchParams.get('u')).toBe(logoUrl);
      expect(src.searchParams.get('s')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(ack.success && ack.theme.logoSrc).toBe(event.logoSrc);
      const joined = await r.freshJoin(carol);
      expect(joined.success && joined.workspace.theme?.logoSrc).toBe(event.logoSrc);

      // The image route (messaging; in distributed mode another process) honours the room service's signature ...
      const image = (path: string) => http(target().A, path);
      const honoured = await image(logoSrc);
      expect(honoured.status).toBe(422);
      expect(honoured.body.code).toBe('LINK_PREVIEW_BLOCKED');
      // ... and refuses a tampered one, or the signature moved to another address, before fetching anything.
      const signature = src.searchParams.get('s')!;
      const tampered = `${LINK_PREVIEW_IMAGE_PATH}?u=${encodeURIComponent(logoUrl)}&s=${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
      const moved = `${LINK_PREVIEW_IMAGE_PATH}?u=${encodeURIComponent('https://127.0.0.1/other.png')}&s=${signature}`;
      for (const path of [tampered, moved]) {
        const refused = await image(path);
        expect(refused.status, path).toBe(403);
        expect(refused.body.code, path).toBe('FORBIDDEN');
      }

      const cleared = next<RoomTheme>(bob.socket, S.themeChanged, (p) => p.themeId === 'dark');
      await request(r.owner.socket, C.broadcastTheme, { workspaceId: r.workspaceId, themeId: 'dark' });
      expect((await cleared).logoSrc).toBe(null);
    });

    it('change-tier (internal) reaches open clients as workspace-updated; no public route leads to it', async () => {
      const r = await room(['bob']);
      const [bob] = r.members;
      const seen = next<WorkspaceUpdate>(bob.socket, S.workspaceUpdated);
      await changeTier(r.workspaceId, 'business');
      expect(await seen).toMatchObject({
        workspaceId: r.workspaceId,
        tier: 'business',
        expiresAt: null,
        settings: { tier: 'business', maxUsers: null },
      });
      expect((await lookup(await nameOf(r))).body.tier).toBe('business');
      for (const base of [target().A, target().B]) {
        const res = await http(base, INTERNAL.changeTier, {
          body: { workspaceId: r.workspaceId, tier: 'free', reason: 'browser' },
        });
        expect(res.status).toBe(404);
      }
      expect((await http(target().A, API.info(r.workspaceId))).body.settings.tier).toBe('business');
    });

    roomAdminMemberTests(target, room, promote);

    // Last: it moves the servers' clock forward.
    it('expiry follows the tier and extensions: the sweeper leaves an extended pro room and a business room, removes a free one', async () => {
      const free = await createRoom(target().A);
      const pro = await createRoom(target().A);
      const business = await createRoom(target().A);
      await changeTier(pro.workspaceId, 'pro');
      await changeTier(business.workspaceId, 'business');
      const { socket } = await socketJoin(target().B, pro.workspaceId, pro.user.username, pro.userToken);
      const ack = await request(socket, C.extendWorkspace, { workspaceId: pro.workspaceId, additionalHours: 168 });
      socket.disconnect();
      expect(ack.success).toBe(true);
      target().advanceClock(10 * 24 * HOUR); // past the pro room's first 7 days, inside its extension
      await expect.poll(async () => (await lookup(free.name)).status, { timeout: 10_000 }).toBe(404);
      expect((await lookup(pro.name)).status).toBe(200);
      expect((await lookup(business.name)).status).toBe(200);
    });
  });
}

/** The room's current name (TestRoom does not keep it). */
async function nameOf(r: TestRoom): Promise<string> {
  const ack = await r.freshJoin(r.owner);
  if (!ack.success) throw new Error(`join failed: ${ack.message}`);
  return ack.workspace.name;
}
