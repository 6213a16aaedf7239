/**
 * The directory's read models are projections: a scripted sequence of billing and room events applied
 * through the service's real projector (applyOnce + projectAdmin) into a real PostgreSQL gives exactly the expected
 * accounts and rooms (tier and payment status, suspension, the admin trial, owners and member counts; deleted and
 * expired rooms and deleted accounts gone), read back as the Users and Rooms tabs list them; emptying the tables and
 * replaying the same events with the two topics interleaved differently (as Kafka may deliver them) gives identical rows.
 */
import { describe, expect, it } from 'vitest';
import {
  TOPIC_OF,
  TOPICS,
  parsePayload,
  settingsForTier,
  type Actor,
  type AnyEventEnvelope,
  type DomainEventPayload,
  type DomainEventType,
} from '@ephemera/proto';
import { makeEvent, systemActor, userActor, type Pool } from '@ephemera/platform';
import { accountsPage, allAccounts, roomsPage } from '../src/directory/read-model.ts';
import { presentRoom, presentUser } from '../src/directory/present.ts';
import { usersCsv } from '../src/directory/users-routes.ts';
import type { AccountFields } from '../src/account-fields.ts';
import { useAdminTestDatabase } from './admin-test-database.ts';

const t = (minute: number) => new Date(Date.parse('2025-03-10T09:00:00Z') + minute * 60_000).toISOString();
let seq = 0;
function ev<T extends DomainEventType>(
  type: T,
  payload: DomainEventPayload<T>,
  minute: number,
  actor: Actor = systemActor,
): AnyEventEnvelope {
  return {
    ...makeEvent(type, `agg-${type}`, ++seq, parsePayload(type, payload), actor),
    occurredAt: t(minute),
  } as AnyEventEnvelope;
}
const registered = (id: string, minute: number, username = id) =>
  ev(
    'account.registered',
    {
      accountId: id,
      email: `${id}@Example.test`,
      username,
      tier: 'free',
      googleId: null,
      picture: null,
      registeredAt: t(minute),
    },
    minute,
  );
const ref = { provider: 'stripe' as const, providerEventId: null };
const ws = (id: string, minute: number, expiresAt: string | null = t(minute + 24 * 60)) =>
  ev(
    'workspace.created',
    {
      workspaceId: id,
      name: `Room_${id}`,
      nameKey: `room_${id}`,
      tier: 'free',
      createdAt: t(minute),
      expiresAt,
      passwordHash: null,
      createdBy: `${id}-owner`,
    },
    minute,
    userActor(`${id}-owner`),
  );
const joined = (room: string, user: string, minute: number) =>
  ev(
    'member.joined',
    { workspaceId: room, userId: user, username: user, isAdmin: false, tokenHash: 'h', joinedAt: t(minute) },
    minute,
    userActor(user),
  );
const update = (id: string, tier: 'free' | 'business', expiresAt: string | null) => ({
  workspaceId: id,
  name: `Room_${id}`,
  isPasswordProtected: false,
  expiresAt,
  tier,
  settings: settingsForTier(tier),
});

const billingLog: AnyEventEnvelope[] = [
  registered('a1', 0),
  registered('a2', 1),
  registered('a3', 2),
  registered('root', 3),
  registered('a4', 4, '50%_off'),
  ev('account.username-changed', { accountId: 'a2', username: 'renamed' }, 10, userActor('a2')),
  ev(
    'account.subscription-activated',
    {
      accountId: 'a1',
      tier: 'pro',
      subscriptionId: 's1',
      customerId: null,
      currentPeriodEnd: t(9000),
      cancelAtPeriodEnd: false,
      ...ref,
    },
    11,
  ),
  ev(
    'account.subscription-past-due',
    { accountId: 'a1', tier: 'pro', subscriptionId: 's1', currentPeriodEnd: t(9000), ...ref },
    12,
  ),
  ev(
    'account.admin-trial-granted',
    { accountId: 'a2', tier: 'business', previousTier: 'free', until: t(43_200), grantedAt: t(13) },
    13,
  ),
  ev('account.suspended', { accountId: 'a1', reason: 'chargebacks', suspendedAt: t(14) }, 14),
  ev('account.suspended', { accountId: 'a4', reason: 'spam', suspendedAt: t(15) }, 15),
  ev('account.unsuspended', { accountId: 'a4', unsuspendedAt: t(16) }, 16),
  ev(
    'account.admin-trial-granted',
    { accountId: 'a4', tier: 'pro', previousTier: 'free', until: t(43_200), grantedAt: t(17) },
    17,
  ),
  ev('account.admin-trial-ended', { accountId: 'a4', tier: 'free', reason: 'ended-by-admin', endedAt: t(18) }, 18),
  ev('account.deleted', { accountId: 'a3', deletedAt: t(19) }, 19, userActor('a3')),
];
const roomLog: AnyEventEnvelope[] = [
  ws('w1', 0),
  joined('w1', 'w1-owner', 0),
  joined('w1', 'bob', 1),
  joined('w1', 'carol', 2),
  ev('member.left', { workspaceId: 'w1', userId: 'bob', username: 'bob', leftAt: t(3) }, 3, userActor('bob')),
  ev(
    'workspace.claimed',
    { workspaceId: 'w1', accountId: 'a1', userId: 'w1-owner', tokenHash: 'h', claimedAt: t(4) },
    4,
    userActor('w1-owner'),
  ),
  ev(
    'workspace.renamed',
    {
      workspaceId: 'w1',
      name: 'Lobby',
      nameKey: 'lobby',
      previousName: 'Room_w1',
      workspace: update('w1', 'free', t(1440)),
    },
    5,
    userActor('w1-owner'),
  ),
  ev(
    'workspace.extended',
    {
      workspaceId: 'w1',
      additionalHours: 168,
      expiresAt: t(1440 + 168 * 60),
      workspace: update('w1', 'free', t(1440 + 168 * 60)),
    },
    6,
  ),
  ws('w2', 7),
  joined('w2', 'w2-owner', 7),
  ev(
    'workspace.claimed',
    { workspaceId: 'w2', accountId: 'a2', userId: 'w2-owner', tokenHash: 'h', claimedAt: t(8) },
    8,
    userActor('w2-owner'),
  ),
  ev(
    'workspace.tier-changed',
    {
      workspaceId: 'w2',
      tier: 'business',
      previousTier: 'free',
      expiresAt: null,
      reason: 'admin trial',
      workspace: update('w2', 'business', null),
    },
    9,
  ),
  ws('w3', 10),
  ev('workspace.deleted', { workspaceId: 'w3', name: 'Room_w3', deletedBy: 'superadmin', deletedAt: t(11) }, 11),
  ws('w4', 12),
  ev('workspace.expired', { workspaceId: 'w4', name: 'Room_w4', expiredAt: t(13) }, 13),
  ws('w5', 14, t(30)),
  joined('w5', 'w5-owner', 14),
];

const listAccounts = async (pool: Pool, fields: AccountFields, q: { search: string; hide: string | null }) =>
  (await accountsPage(pool, fields, { ...q, page: 1, pageSize: 50 })).rows;
const listRooms = async (pool: Pool, fields: AccountFields, search: string, now: Date) =>
  (await roomsPage(pool, fields, { search, page: 1, pageSize: 50, now })).rows;
const ACCOUNT_COLUMNS =
  'id, email, email_hash, email_grams, username_grams, username, tier, payment_status, created_at, upgraded_by_admin, trial_ends_at, suspended, suspended_reason, last_active_at';
/** the rows, e-mails and usernames opened (each seal takes a fresh nonce, so the sealed bytes differ on a replay) */
const snapshot = async (pool: Pool, fields: AccountFields) => ({
  accounts: await Promise.all(
    (await pool.query(`SELECT ${ACCOUNT_COLUMNS} FROM admin.accounts ORDER BY id`)).rows.map(async (r) => ({
      ...r,
      ...(await fields.open(r)),
    })),
  ),
  rooms: (await pool.query('SELECT * FROM admin.rooms ORDER BY id')).rows,
});

describe('directory projection', () => {
  const db = useAdminTestDatabase();

  it('gives exactly the scripted accounts and rooms, listed as the tabs show them', async () => {
    const { pool } = db;
    expect(
      billingLog.every((e) => TOPIC_OF[e.type] === TOPICS.billing) &&
        roomLog.every((e) => TOPIC_OF[e.type] === TOPICS.room),
    ).toBe(true);
    await db.apply([...billingLog, ...roomLog]);
    const users = (await listAccounts(pool, db.fields, { search: '', hide: 'root@example.test' })).map(presentUser);
    expect(users.map((u) => u.email)).toEqual(['a4@example.test', 'a2@example.test', 'a1@example.test']); // newest first, no root, no a3
    expect(users.find((u) => u.email === 'a1@example.test')).toMatchObject({
      subscriptionTier: 'pro',
      paymentStatus: 'past_due',
      suspended: true,
      suspendedReason: 'chargebacks',
      upgradedByAdmin: false,
    });
    expect(users.find((u) => u.email === 'a2@example.test')).toMatchObject({
      username: 'renamed',
      subscriptionTier: 'business',
      upgradedByAdmin: true,
      trialEndsAt: t(43_200),
      suspended: false,
    });
    expect(users.find((u) => u.email === 'a4@example.test')).toMatchObject({
      subscriptionTier: 'free',
      upgradedByAdmin: false,
      trialEndsAt: null,
      suspended: false,
    });
    const a2 = (await pool.query('SELECT last_active_at FROM admin.accounts WHERE id = $1', ['a2'])).rows[0];
    expect(a2.last_active_at.toISOString()).toBe(t(10)); // the user's own rename; the trial is the admin's doing
    expect((await listAccounts(pool, db.fields, { search: '50%_', hide: null })).map((a) => a.id)).toEqual(['a4']);
    expect((await listAccounts(pool, db.fields, { search: '%_o', hide: null })).map((a) => a.id)).toEqual(['a4']); // % and _ are characters
    expect((await listAccounts(pool, db.fields, { search: 'RENAMED', hide: null })).map((a) => a.id)).toEqual(['a2']);
    expect((await listAccounts(pool, db.fields, { search: 'a1@EXAMPLE', hide: null })).map((a) => a.id)).toEqual([
      'a1',
    ]); // a part of a sealed e-mail

    const now = new Date(t(60));
    const rooms = (await listRooms(pool, db.fields, '', now)).map((r) => presentRoom(r, now));
    expect(rooms).toEqual([
      { id: 'w5', name: 'Room_w5', owner: null, userCount: 1, isActive: false, expiresAt: t(30) }, // past its expiry, not yet swept: Expired
      { id: 'w2', name: 'Room_w2', owner: 'a2@example.test', userCount: 1, isActive: true, expiresAt: null },
      {
        id: 'w1',
        name: 'Lobby',
        owner: 'a1@example.test',
        userCount: 2,
        isActive: true,
        expiresAt: t(1440 + 168 * 60),
      },
    ]);
    expect((await listRooms(pool, db.fields, 'a1@EXAMPLE.test', now)).map((r) => r.id)).toEqual(['w1']); // the owner's whole address
    expect((await listRooms(pool, db.fields, 'a2@EXAM', now)).map((r) => r.id)).toEqual(['w2']); // or a part of it
    expect((await listRooms(pool, db.fields, 'lob', now)).map((r) => r.id)).toEqual(['w1']);

    // the filters and totals (docs/product/admin.md ADM4, ADM6)
    const pastDue = await accountsPage(pool, db.fields, {
      search: '',
      status: 'past_due',
      page: 1,
      pageSize: 50,
      hide: 'root@example.test',
    });
    expect([pastDue.rows.map((a) => a.id), pastDue.total]).toEqual([['a1'], 1]);
    expect(pastDue.totals).toEqual({
      total: 3,
      byTier: { free: 1, pro: 1, business: 1 },
      byStatus: { active: 2, past_due: 1, cancelled: 0 },
    });
    const second = await accountsPage(pool, db.fields, {
      search: 'example',
      tier: 'free',
      page: 2,
      pageSize: 1,
      hide: null,
    });
    expect([second.rows.map((a) => a.id), second.total]).toEqual([['root'], 2]); // a4, then root (newest first)
    const expired = await roomsPage(pool, db.fields, { search: '', status: 'expired', page: 1, pageSize: 50, now });
    expect([expired.rows.map((r) => r.id), expired.total, expired.totals]).toEqual([
      ['w5'],
      1,
      { total: 3, active: 2, expired: 1, users: 4 },
    ]);
    expect(
      (await roomsPage(pool, db.fields, { search: 'room_w', status: 'active', page: 1, pageSize: 50, now })).rows.map(
        (r) => r.id,
      ),
    ).toEqual(['w2']);

    const csv = usersCsv(await allAccounts(pool, db.fields, 'root@example.test'));
    expect(csv.split('\n')[0]).toBe(
      'email,username,subscriptionTier,upgradedByAdmin,trialEndsAt,paymentStatus,suspended,suspendedReason,createdAt,lastActiveAt',
    );
    expect(csv).toContain(`a1@example.test,a1,pro,false,,past_due,true,chargebacks,${t(0)},${t(0)}`);
  });

  it('a replay into empty tables, with the topics interleaved differently, rebuilds identical rows', async () => {
    const { pool } = db;
    const before = await snapshot(pool, db.fields);
    await pool.query('TRUNCATE admin.accounts, admin.rooms, admin.processed_events');
    const interleaved: AnyEventEnvelope[] = [];
    for (let i = 0; i < Math.max(billingLog.length, roomLog.length); i++)
      interleaved.push(...[roomLog[i], billingLog[i]].filter((e) => e !== undefined));
    await db.apply(interleaved);
    expect(await snapshot(pool, db.fields)).toEqual(before);
    await db.apply(interleaved); // delivered again: applyOnce changes nothing
    expect(await snapshot(pool, db.fields)).toEqual(before);
  });
});
