/**
 * Who sees a channel, two copies that must agree (docs/security.md, "Who sees a channel"): proto's channelVisibleTo
 * and channelAudience over the room's channels, and messaging's read model of them (projection-rooms.ts stores
 * channelIsMembersOnly and the members), read by its SQL filter (channelVisibleSql: resync, channel summaries,
 * search) and by its access check (AccessChecks: send, edit, react, mark read, join, fetch). Every kind of channel,
 * projected by the real projection, against every role in the room and someone outside it.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { C, SOCKET_AUTHZ, channelAudience, channelVisibleTo, type Channel } from '@ephemera/proto';
import { createPool, makeEvent, migrate, newId, userActor } from '@ephemera/platform';
import { createTestDatabase } from '../../../test/helpers/db.ts';
import { MESSAGING_MIGRATIONS } from '../src/index.ts';
import { projectRoomEvent } from '../src/projection-rooms.ts';
import { AccessChecks } from '../src/access.ts';
import { channelVisibleSql } from '../src/rooms-repository.ts';

const OWNER = 'owner',
  ADMIN = 'admin',
  BOB = 'bob',
  CAROL = 'carol',
  OUTSIDER = 'outsider';
const ROOM = [OWNER, ADMIN, BOB, CAROL];

describe("channel visibility: messaging's SQL and access check agree with proto's rule (PostgreSQL)", async () => {
  const url = await createTestDatabase();
  await migrate(url, MESSAGING_MIGRATIONS, 'messaging');
  const pool = createPool(url, 4);
  const db = await pool.connect();
  afterAll(async () => {
    db.release();
    await pool.end();
  });

  const workspaceId = newId();
  await pool.query('INSERT INTO messaging.workspaces (id, expires_at, created_by, tier) VALUES ($1, NULL, $2, $3)', [
    workspaceId,
    OWNER,
    'free',
  ]);
  for (const userId of ROOM) {
    await pool.query('INSERT INTO messaging.members (workspace_id, user_id, is_admin) VALUES ($1, $2, $3)', [
      workspaceId,
      userId,
      userId === ADMIN,
    ]);
  }

  let seq = 0;
  const channel = (over: Partial<Channel>): Channel => ({
    id: newId(),
    workspaceId,
    name: 'n',
    type: 'topic',
    isPrivate: false,
    memberIds: [],
    createdBy: OWNER,
    createdAt: new Date().toISOString(),
    ...over,
  });
  const channels: Channel[] = [
    channel({}),
    channel({ isPrivate: true, memberIds: [OWNER, BOB] }),
    channel({ isPrivate: true, memberIds: [BOB, CAROL], createdBy: BOB }),
    channel({ isPrivate: true, memberIds: [ADMIN], createdBy: ADMIN }),
    channel({ type: 'dm', name: 'dm', isPrivate: true, memberIds: [BOB, CAROL], createdBy: BOB }),
    channel({ type: 'dm', name: 'dm', isPrivate: true, memberIds: [OWNER, CAROL] }),
    // A DM is never the room's, even if a malformed event said it was not private.
    channel({ type: 'dm', name: 'dm', isPrivate: false, memberIds: [ADMIN, BOB], createdBy: ADMIN }),
  ];
  for (const c of channels)
    await projectRoomEvent(
      db,
      makeEvent('channel.created', workspaceId, ++seq, { workspaceId, channel: c }, userActor(c.createdBy)),
    );

  const seenBySql = async (userId: string) =>
    (
      await pool.query(
        `SELECT c.id FROM messaging.channels c WHERE c.workspace_id = $1 AND ${channelVisibleSql('$2')}`,
        [workspaceId, userId],
      )
    ).rows.map((r) => r.id as string);
  const access = new AccessChecks(
    pool,
    () => new Date(),
    () => null,
  );
  const sorted = (ids: string[]) => [...ids].sort();

  /** For each viewer: the SQL's channels, the access check's verdict and the stored channel's audience, against proto. */
  async function expectAgreement(current: Channel[]) {
    for (const userId of [...ROOM, OUTSIDER]) {
      expect(sorted(await seenBySql(userId)), userId).toEqual(
        sorted(current.filter((c) => channelVisibleTo(c, userId)).map((c) => c.id)),
      );
    }
    for (const userId of ROOM) {
      for (const c of current) {
        const actor = { workspaceId, userId, username: userId };
        const checked = await access.checkCanRead(actor, SOCKET_AUTHZ[C.fetchMessages], c.id).then(
          (a) => a,
          (err: { code?: string }) => err.code,
        );
        if (channelVisibleTo(c, userId)) {
          expect(checked, `${userId} reads ${c.type} ${c.memberIds}`).toMatchObject({ channel: { id: c.id } });
          expect(
            channelAudience((checked as { channel: { membersOnly: boolean; memberIds: string[] } }).channel),
          ).toEqual(channelAudience(c));
        } else {
          expect(checked, `${userId} reads ${c.type} ${c.memberIds}`).toBe('NOT_A_MEMBER');
        }
      }
    }
  }

  it('every kind of channel as created', async () => {
    await expectAgreement(channels);
  });

  it("after a private channel's members change", async () => {
    const before = channels[2]!;
    const after: Channel = { ...before, memberIds: [BOB, OWNER] };
    await projectRoomEvent(
      db,
      makeEvent(
        'channel.members-changed',
        workspaceId,
        ++seq,
        { workspaceId, channel: after, added: [OWNER], removed: [CAROL] },
        userActor(BOB),
      ),
    );
    await expectAgreement(channels.map((c) => (c.id === after.id ? after : c)));
  });
});
