/**
 * Read queries over the room read model. Parameterized SQL only. Members' usernames and profile pictures, channel
 * names (and the name on a broadcast theme) are stored sealed under the room's key and opened here
 * (member-crypto.ts), so every caller sees plain rows.
 */
import type { Pool, RoomKey, RoomKeyring } from '@ephemera/platform';
import {
  channelVisibleTo,
  settingsForTier,
  type CallerRecord,
  type Channel,
  type RoomTheme,
  type RoomUser,
  type Tier,
  type Workspace,
  type WorkspaceUpdate,
} from '@ephemera/proto';
import {
  CHANNEL_NAME_PURPOSE,
  CHANNEL_NAME_PURPOSE_V1,
  channelNameHash,
  channelNameHashV1,
  memberKey,
  openChannelName,
  openPicture,
  openThemeAuthor,
  openUsername,
  usernameHash,
} from './member-crypto.ts';
import { roomNameKey } from './name-keys.ts';
import { AtSeqCache } from './at-seq-cache.ts';

export interface WorkspaceRow {
  id: string;
  name: string;
  tier: Tier;
  createdAt: Date;
  expiresAt: Date | null;
  passwordHash: string | null;
  createdBy: string;
  lastSeq: number;
  /** the owner's cap (pro, business); null = the tier's default */
  customMaxUsers: number | null;
  /** the theme an admin last broadcast; null = none */
  theme: RoomTheme | null;
}
export interface MemberRow {
  userId: string;
  username: string;
  isAdmin: boolean;
  joinedAt: Date;
  profilePicture: string | null;
}
export interface DepartureRow {
  userId: string;
  username: string;
  reason: 'left' | 'kicked';
}

const WORKSPACE_COLUMNS = `id, name, tier, created_at AS "createdAt", expires_at AS "expiresAt",
  password_hash AS "passwordHash", created_by AS "createdBy", last_seq AS "lastSeq", custom_max_users AS "customMaxUsers", theme`;
const MEMBER_COLUMNS = `user_id AS "userId", username, is_admin AS "isAdmin", joined_at AS "joinedAt", profile_picture AS "profilePicture"`;
const CHANNEL_COLUMNS = `c.id, c.workspace_id AS "workspaceId", c.name, c.name_sealed AS "nameSealed", c.type, c.is_private AS "isPrivate",
  c.member_ids AS "memberIds", c.created_by AS "createdBy", c.created_at AS "createdAt"`;

type ChannelRow = Channel & { createdAt: string | Date; nameSealed: boolean };
/** A stored channel with its name opened (`key`: the room's; none once the room is gone and being swept). */
const toChannel = (key: RoomKey | null, r: ChannelRow): Channel => ({
  id: r.id,
  workspaceId: r.workspaceId,
  name: !r.nameSealed ? r.name : key ? openChannelName(key, r.id, r.name) : '',
  type: r.type,
  isPrivate: r.isPrivate,
  memberIds: r.memberIds,
  createdBy: r.createdBy,
  createdAt: new Date(r.createdAt).toISOString(),
});

/** Rooms whose opened member lists and channel lists are kept (the oldest filled goes first), and for how long at most. */
const ROOM_CACHE_ROOMS = 1_000;
const ROOM_CACHE_MS = 60_000;

/** A room's channels, and who hid which DM (channelsAt). */
export interface RoomChannels {
  channels: Channel[];
  hiddenBy: Map<string, Set<string>>;
}

export class RoomRepository {
  /** membersAt's opened member lists, by room, with the room's lastSeq they were read at */
  private readonly memberCache = new AtSeqCache<{ rows: MemberRow[]; byTokenHash: Map<string, MemberRow> }>(
    ROOM_CACHE_ROOMS,
    ROOM_CACHE_MS,
  );
  /** workspaceById's queries not yet sent, by room */
  private readonly workspaceReads = new Map<string, Promise<WorkspaceRow | null>>();
  /** channelsAt's channel lists, the same way as the member lists */
  private readonly channelCache = new AtSeqCache<RoomChannels>(ROOM_CACHE_ROOMS, ROOM_CACHE_MS);

  constructor(
    private readonly pool: Pool,
    private readonly keyring: RoomKeyring,
  ) {}

  /** The stored rows opened with the room's key (none: no key lookup). */
  private async openMembers(workspaceId: string, rows: MemberRow[]): Promise<MemberRow[]> {
    if (rows.length === 0) return rows;
    const key = await memberKey(this.keyring, workspaceId);
    return rows.map((r) => ({
      ...r,
      username: openUsername(key, r.userId, r.username),
      profilePicture: openPicture(key, r.userId, r.profilePicture),
    }));
  }

  /** The theme's author name opened; a room whose key is already destroyed (being swept) shows no theme. */
  private async openWorkspace(row: WorkspaceRow | undefined): Promise<WorkspaceRow | null> {
    if (!row) return null;
    if (!row.theme) return row;
    const key = await this.keyring.key(row.id);
    return { ...row, theme: key ? openThemeAuthor(key, row.theme) : null };
  }

  /**
   * The room's row. Calls for one room made in the same burst (before the process goes back to its event loop: the
   * joins of one batched internal call) share one query, sent once they have all been made, so each still sees
   * the row as of its call or newer. Callers must not change the row.
   */
  workspaceById(id: string): Promise<WorkspaceRow | null> {
    const pending = this.workspaceReads.get(id);
    if (pending) return pending;
    const read = new Promise<void>((resolve) => process.nextTick(resolve)).then(async () => {
      this.workspaceReads.delete(id); // a call from here on is after the query: it makes its own
      const { rows } = await this.pool.query(`SELECT ${WORKSPACE_COLUMNS} FROM room.workspaces WHERE id = $1`, [id]);
      return this.openWorkspace(rows[0]);
    });
    this.workspaceReads.set(id, read);
    return read;
  }

  /** The rooms whose name is `name` or renders like it (name-keys.ts): a new room or a rename must not take it. */
  async workspacesNamedLike(name: string): Promise<WorkspaceRow[]> {
    const { rows } = await this.pool.query(
      `SELECT ${WORKSPACE_COLUMNS} FROM room.workspaces WHERE name_key = $1 OR name_skeleton = $2`,
      [name.toLowerCase(), roomNameKey(name)],
    );
    const opened = await Promise.all(rows.map((r) => this.openWorkspace(r)));
    return opened.filter((ws): ws is WorkspaceRow => ws !== null);
  }

  async workspaceByName(name: string): Promise<WorkspaceRow | null> {
    const { rows } = await this.pool.query(`SELECT ${WORKSPACE_COLUMNS} FROM room.workspaces WHERE name_key = $1`, [
      name.toLowerCase(),
    ]);
    return this.openWorkspace(rows[0]);
  }

  async members(workspaceId: string): Promise<MemberRow[]> {
    const { rows } = await this.pool.query(
      `SELECT ${MEMBER_COLUMNS} FROM room.members WHERE workspace_id = $1 ORDER BY joined_at`,
      [workspaceId],
    );
    return this.openMembers(workspaceId, rows);
  }

  /**
   * The members of a room read at `ws` (its row read before this call), opened, and who holds which token: reused
   * while the room's lastSeq stays the same. Every room event moves lastSeq in the transaction that applies it
   * (projection.ts), on whichever replica applied it, so a join, leave, kick, role, token or profile change is never
   * served from an older list. A list read after `ws` may be newer than its tag, never older; a token revoked after
   * `ws` was read is the same race as without the list (the join is ordered before the revocation, whose fan-out
   * then ends the session). The age bound covers a read model replaced under a running process (a restore).
   * Why: a join read every member and opened two sealed fields of each, O(room size) per join, in two more queries;
   * a reconnect storm (a gateway replica lost) rejoins a room's members all at once. Callers must not change the rows.
   */
  membersAt(
    ws: Pick<WorkspaceRow, 'id' | 'lastSeq'>,
  ): Promise<{ rows: MemberRow[]; byTokenHash: Map<string, MemberRow> }> {
    return this.memberCache.get({ id: ws.id, lastSeq: ws.lastSeq }, async () => {
      const { rows: stored } = await this.pool.query(
        `SELECT ${MEMBER_COLUMNS}, token_hash AS "tokenHash" FROM room.members WHERE workspace_id = $1 ORDER BY joined_at`,
        [ws.id],
      );
      const tokens = (stored as { tokenHash: string | null }[]).map((r) => r.tokenHash);
      const rows = await this.openMembers(
        ws.id,
        (stored as (MemberRow & { tokenHash?: string })[]).map(({ tokenHash: _, ...row }) => row),
      );
      const byTokenHash = new Map<string, MemberRow>();
      rows.forEach((row, i) => {
        if (tokens[i]) byTokenHash.set(tokens[i]!, row);
      });
      return { rows, byTokenHash };
    });
  }

  async memberIds(workspaceId: string): Promise<Set<string>> {
    const { rows } = await this.pool.query('SELECT user_id FROM room.members WHERE workspace_id = $1', [workspaceId]);
    return new Set(rows.map((r) => r.user_id as string));
  }

  /** The room whose member holds this token hash now, if any (member-tokens.ts decides whose it is). */
  async workspaceOfToken(tokenHash: string): Promise<string | null> {
    const { rows } = await this.pool.query('SELECT workspace_id FROM room.members WHERE token_hash = $1 LIMIT 1', [
      tokenHash,
    ]);
    return (rows[0]?.workspace_id as string | undefined) ?? null;
  }

  async memberById(workspaceId: string, userId: string): Promise<MemberRow | null> {
    const { rows } = await this.pool.query(
      `SELECT ${MEMBER_COLUMNS} FROM room.members WHERE workspace_id = $1 AND user_id = $2`,
      [workspaceId, userId],
    );
    return (await this.openMembers(workspaceId, rows))[0] ?? null;
  }

  /** A former member (left or kicked): roleOf() needs it to tell 'left' from 'non-member'. */
  async departure(workspaceId: string, userId: string): Promise<DepartureRow | null> {
    const { rows } = await this.pool.query(
      'SELECT user_id AS "userId", username, reason FROM room.departed_members WHERE workspace_id = $1 AND user_id = $2',
      [workspaceId, userId],
    );
    const row = rows[0] as DepartureRow | undefined;
    if (!row) return null;
    return { ...row, username: openUsername(await memberKey(this.keyring, workspaceId), row.userId, row.username) };
  }

  /** Was this token a kicked member's? (join-workspace with it answers KICKED) */
  async kickedByToken(workspaceId: string, tokenHash: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `SELECT 1 FROM room.departed_members WHERE workspace_id = $1 AND token_hash = $2 AND reason = 'kicked'`,
      [workspaceId, tokenHash],
    );
    return (rowCount ?? 0) > 0;
  }

  async memberCount(workspaceId: string): Promise<number> {
    const { rows } = await this.pool.query('SELECT count(*)::int AS n FROM room.members WHERE workspace_id = $1', [
      workspaceId,
    ]);
    return rows[0].n as number;
  }

  /** Is the name (by the keyed hash of its NFKC, case-insensitive key) a current member's, other than exceptUserId's? */
  async usernameTaken(workspaceId: string, username: string, exceptUserId: string | null = null): Promise<boolean> {
    const key = await memberKey(this.keyring, workspaceId);
    const { rowCount } = await this.pool.query(
      'SELECT 1 FROM room.members WHERE workspace_id = $1 AND username_hash = $2 AND user_id IS DISTINCT FROM $3',
      [workspaceId, usernameHash(key, username), exceptUserId],
    );
    return (rowCount ?? 0) > 0;
  }

  async channels(workspaceId: string): Promise<Channel[]> {
    const { rows } = await this.pool.query(
      `SELECT ${CHANNEL_COLUMNS} FROM room.channels c WHERE c.workspace_id = $1 ORDER BY c.created_at`,
      [workspaceId],
    );
    const key = await this.keyring.key(workspaceId);
    return rows.map((r) => toChannel(key, r));
  }

  /**
   * The channels of a room read at `ws`, with who hid which DM: reused while the room's lastSeq stays the same, like
   * membersAt (a channel created, renamed, deleted or re-membered, a DM hidden or reopened: each is a room event and
   * moves lastSeq). Why: every join read the member's channel list, one more query per join. Callers must not
   * change the rows.
   */
  channelsAt(ws: Pick<WorkspaceRow, 'id' | 'lastSeq'>): Promise<RoomChannels> {
    return this.channelCache.get({ id: ws.id, lastSeq: ws.lastSeq }, async () => {
      const { rows } = await this.pool.query(
        `SELECT ${CHANNEL_COLUMNS}, (SELECT array_agg(h.user_id) FROM room.hidden_dms h WHERE h.channel_id = c.id) AS "hiddenBy"
         FROM room.channels c WHERE c.workspace_id = $1 ORDER BY c.created_at`,
        [ws.id],
      );
      const hiddenBy = new Map<string, Set<string>>();
      for (const r of rows as { id: string; hiddenBy: string[] | null }[])
        if (r.hiddenBy) hiddenBy.set(r.id, new Set(r.hiddenBy));
      const key = await this.keyring.key(ws.id);
      return { channels: rows.map((r) => toChannel(key, r)), hiddenBy };
    });
  }

  /** The channel list one member sees: public topics, private channels and DMs they are in, minus DMs they hid. */
  async channelsVisibleTo(ws: Pick<WorkspaceRow, 'id' | 'lastSeq'>, userId: string): Promise<Channel[]> {
    const { channels, hiddenBy } = await this.channelsAt(ws);
    return channels.filter((c) => channelVisibleTo(c, userId) && !hiddenBy.get(c.id)?.has(userId));
  }

  async channelById(workspaceId: string, channelId: string): Promise<Channel | null> {
    const { rows } = await this.pool.query(
      `SELECT ${CHANNEL_COLUMNS} FROM room.channels c WHERE c.id = $1 AND c.workspace_id = $2`,
      [channelId, workspaceId],
    );
    return rows[0] ? toChannel(await this.keyring.key(workspaceId), rows[0]) : null;
  }

  /**
   * The hot path of typing (one call per typing event): one query over primary keys answers the channel, whether
   * the room is live at `now` and whether the user is a current member.
   */
  /**
   * What a presence event's check needs, in one indexed query (typing comes often): whether the room is live, the
   * caller as authorizeCaller reads it (member row, departure, the room's creator), and the channel it names if any.
   */
  async callerAndChannel(
    workspaceId: string,
    userId: string,
    channelId: string | null,
    now: Date,
  ): Promise<{ live: boolean; caller: CallerRecord; channel: Channel | null } | null> {
    const { rows } = await this.pool.query(
      `SELECT (w.expires_at IS NULL OR w.expires_at > $4) AS live, w.created_by AS room_created_by, m.user_id AS member_id,
              m.is_admin AS member_is_admin,
              (SELECT d.reason FROM room.departed_members d WHERE d.workspace_id = w.id AND d.user_id = $3) AS departed, ${CHANNEL_COLUMNS}
       FROM room.workspaces w
       LEFT JOIN room.members m ON m.workspace_id = w.id AND m.user_id = $3
       LEFT JOIN room.channels c ON c.id = $2 AND c.workspace_id = w.id
       WHERE w.id = $1`,
      [workspaceId, channelId, userId, now],
    );
    const r = rows[0];
    if (!r) return null;
    const member = r.member_id ? { userId: r.member_id as string, isAdmin: r.member_is_admin as boolean } : null;
    const channel = r.id ? toChannel(await this.keyring.key(workspaceId), r) : null;
    return { live: r.live, caller: { member, createdBy: r.room_created_by, departed: r.departed ?? null }, channel };
  }

  async dmByKey(workspaceId: string, dmKey: string): Promise<Channel | null> {
    const { rows } = await this.pool.query(
      `SELECT ${CHANNEL_COLUMNS} FROM room.channels c WHERE c.workspace_id = $1 AND c.dm_key = $2`,
      [workspaceId, dmKey],
    );
    return rows[0] ? toChannel(await this.keyring.key(workspaceId), rows[0]) : null;
  }

  /** Members who hid this DM before `before` (a message at that time reopens it for them). */
  async hiddenBefore(channelId: string, before: Date): Promise<string[]> {
    const { rows } = await this.pool.query(
      'SELECT user_id FROM room.hidden_dms WHERE channel_id = $1 AND hidden_at <= $2',
      [channelId, before],
    );
    return rows.map((r) => r.user_id as string);
  }

  async isHidden(channelId: string, userId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('SELECT 1 FROM room.hidden_dms WHERE channel_id = $1 AND user_id = $2', [
      channelId,
      userId,
    ]);
    return (rowCount ?? 0) > 0;
  }

  /**
   * Topic channel names are unique per room, as their confusable skeletons (DMs all share one stable name): compared
   * by the keyed hash of the skeleton; a row hashed under the earlier purpose (the lower case) or not sealed yet is
   * compared by what it holds until it is hashed again at start (name-rehash.ts).
   */
  async channelNameTaken(workspaceId: string, name: string, exceptChannelId: string | null = null): Promise<boolean> {
    const key = await memberKey(this.keyring, workspaceId);
    const { rowCount } = await this.pool.query(
      `SELECT 1 FROM room.channels WHERE workspace_id = $1 AND type = 'topic' AND id IS DISTINCT FROM $3
         AND ((name_sealed AND name_key_purpose = $5 AND name_key = $2)
           OR (name_sealed AND name_key_purpose = $6 AND name_key = $7)
           OR (NOT name_sealed AND name_key = $4))`,
      [
        workspaceId,
        channelNameHash(key, name),
        exceptChannelId,
        name.toLowerCase(),
        CHANNEL_NAME_PURPOSE,
        CHANNEL_NAME_PURPOSE_V1,
        channelNameHashV1(key, name),
      ],
    );
    return (rowCount ?? 0) > 0;
  }

  async expiredBefore(now: Date, limit = 100): Promise<WorkspaceRow[]> {
    const { rows } = await this.pool.query(
      `SELECT ${WORKSPACE_COLUMNS} FROM room.workspaces WHERE expires_at IS NOT NULL AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
      [now, limit],
    );
    return Promise.all(rows.map(async (r: WorkspaceRow) => (await this.openWorkspace(r))!));
  }
}

export function toRoomUser(m: MemberRow, ws: WorkspaceRow): RoomUser {
  return {
    id: m.userId,
    username: m.username,
    isAdmin: m.isAdmin,
    isOwner: m.userId === ws.createdBy,
    profilePicture: m.profilePicture ?? null,
    presenceStatus: 'online',
    joinedAt: new Date(m.joinedAt).toISOString(),
  };
}

/** The workspace as one member sees it: `channels` already holds only what that member may list. */
export function toWorkspace(ws: WorkspaceRow, members: MemberRow[], channels: Channel[], viewerId: string): Workspace {
  return {
    id: ws.id,
    workspaceId: ws.id,
    name: ws.name,
    createdBy: ws.createdBy,
    createdAt: new Date(ws.createdAt).toISOString(),
    expiresAt: ws.expiresAt ? new Date(ws.expiresAt).toISOString() : null,
    isPasswordProtected: ws.passwordHash !== null,
    tier: ws.tier,
    settings: settingsForTier(ws.tier, ws.customMaxUsers),
    users: members.map((m) => toRoomUser(m, ws)),
    channels: channels.filter((c) => channelVisibleTo(c, viewerId)),
    // A theme stored before logoSrc existed has none: no logo is shown rather than the third-party address.
    theme: ws.theme ? { ...ws.theme, logoSrc: ws.theme.logoSrc ?? null } : null,
  };
}

/** The room's changeable properties (workspace-updated), as every member sees them. */
export function toWorkspaceUpdate(ws: WorkspaceRow): WorkspaceUpdate {
  return {
    workspaceId: ws.id,
    name: ws.name,
    isPasswordProtected: ws.passwordHash !== null,
    expiresAt: ws.expiresAt ? new Date(ws.expiresAt).toISOString() : null,
    tier: ws.tier,
    settings: settingsForTier(ws.tier, ws.customMaxUsers),
  };
}
