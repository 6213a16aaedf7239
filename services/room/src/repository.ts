/**
 * Read queries over the room read model: rooms and members (channels: channel-repository.ts, which this class
 * extends; the rows and the shapes made from them: room-rows.ts). Parameterized SQL only. Members' usernames and
 * profile pictures (and the name on a broadcast theme) are stored sealed under the room's key and opened here
 * (member-crypto.ts), so every caller sees plain rows.
 */
import type { Tier } from '@ephemera/proto';
import { memberKey, openPicture, openThemeAuthor, openUsername, usernameHash } from './member-crypto.ts';
import { roomNameKey } from './name-keys.ts';
import { AtSeqCache } from './at-seq-cache.ts';
import { ChannelRepository } from './channel-repository.ts';
import {
  MEMBER_COLUMNS,
  ROOM_CACHE_MS,
  ROOM_CACHE_ROOMS,
  WORKSPACE_COLUMNS,
  type DepartureRow,
  type MemberRow,
  type WorkspaceRow,
  type RoomMembers,
} from './room-rows.ts';

// The rows and their shapes are imported from here by most of the service's files.
export {
  toRoomUser,
  toWorkspace,
  toWorkspaceUpdate,
  type DepartureRow,
  type MemberRow,
  type RoomChannels,
  type WorkspaceRow,
} from './room-rows.ts';

export class RoomRepository extends ChannelRepository {
  /** membersAt's opened member lists, by room, with the room's lastSeq they were read at */
  private readonly memberCache = new AtSeqCache<RoomMembers>(ROOM_CACHE_ROOMS, ROOM_CACHE_MS);
  /** workspaceById's queries not yet sent, by room */
  private readonly workspaceReads = new Map<string, Promise<WorkspaceRow | null>>();

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
  membersAt(ws: Pick<WorkspaceRow, 'id' | 'lastSeq'>): Promise<RoomMembers> {
    return this.memberCache.get(
      { id: ws.id, lastSeq: ws.lastSeq },
      () => this.readMembers(ws.id),
      (older) => {
        const joined = this.appliedJoins.between(ws.id, older.seq, ws.lastSeq);
        return joined ? older.value.then((list) => this.withJoined(ws.id, list, joined)) : null;
      },
    );
  }

  /** A room's members opened, with who holds which token; `userIds`: only those members. */
  private async readMembers(workspaceId: string, userIds?: string[]): Promise<RoomMembers> {
    const { rows: stored } = userIds
      ? await this.pool.query(
          `SELECT ${MEMBER_COLUMNS}, token_hash AS "tokenHash" FROM room.members WHERE workspace_id = $1 AND user_id = ANY($2) ORDER BY joined_at`,
          [workspaceId, userIds],
        )
      : await this.pool.query(
          `SELECT ${MEMBER_COLUMNS}, token_hash AS "tokenHash" FROM room.members WHERE workspace_id = $1 ORDER BY joined_at`,
          [workspaceId],
        );
    const tokens = (stored as { tokenHash: string | null }[]).map((r) => r.tokenHash);
    const rows = await this.openMembers(
      workspaceId,
      (stored as (MemberRow & { tokenHash?: string })[]).map(({ tokenHash: _, ...row }) => row),
    );
    const byTokenHash = new Map<string, MemberRow>();
    rows.forEach((row, i) => {
      if (tokens[i]) byTokenHash.set(tokens[i]!, row);
    });
    return { rows, byTokenHash };
  }

  /**
   * A kept list and the members who joined since (AppliedJoins: nothing else happened to the room), reading only
   * their rows. A list read after its tag may hold some of them already. Should a row be missing (its room's key
   * went meanwhile), the whole list is read again.
   */
  private async withJoined(workspaceId: string, list: RoomMembers, joined: string[]): Promise<RoomMembers> {
    const fresh = joined.filter((id) => !list.rows.some((r) => r.userId === id));
    if (fresh.length === 0) return list;
    const added = await this.readMembers(workspaceId, fresh);
    if (added.rows.length !== fresh.length) return this.readMembers(workspaceId);
    const last = list.rows.at(-1)?.joinedAt;
    const rows = [...list.rows, ...added.rows];
    if (last && added.rows.some((r) => new Date(r.joinedAt) < new Date(last)))
      rows.sort((a, b) => new Date(a.joinedAt).getTime() - new Date(b.joinedAt).getTime());
    return { rows, byTokenHash: new Map([...list.byTokenHash, ...added.byTokenHash]) };
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

  async expiredBefore(now: Date, limit = 100): Promise<WorkspaceRow[]> {
    const { rows } = await this.pool.query(
      `SELECT ${WORKSPACE_COLUMNS} FROM room.workspaces WHERE expires_at IS NOT NULL AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
      [now, limit],
    );
    return Promise.all(rows.map(async (r: WorkspaceRow) => (await this.openWorkspace(r))!));
  }

  /** The account that claimed the room, or null (a guest's room, or none); read now, never from a cache. */
  async ownerAccountOf(workspaceId: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ owner_account_id: string | null }>(
      'SELECT owner_account_id FROM room.workspaces WHERE id = $1',
      [workspaceId],
    );
    return rows[0]?.owner_account_id ?? null;
  }

  /** How many rooms the account owns that are live at `now` (its rooms-per-account allowance). */
  async liveRoomCountOf(accountId: string, now: Date): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM room.workspaces WHERE owner_account_id = $1 AND (expires_at IS NULL OR expires_at > $2)',
      [accountId, now],
    );
    return rows[0]!.n;
  }

  /** The rooms the account owns that are live at `now`, newest first (the dashboard's list). */
  async liveRoomsOf(accountId: string, now: Date): Promise<OwnedRoomRow[]> {
    const { rows } = await this.pool.query<OwnedRoomRow>(
      `SELECT id, name, tier, created_at AS "createdAt", expires_at AS "expiresAt" FROM room.workspaces
       WHERE owner_account_id = $1 AND (expires_at IS NULL OR expires_at > $2) ORDER BY created_at DESC`,
      [accountId, now],
    );
    return rows;
  }
}

/** A room an account owns, as its dashboard lists it. */
export interface OwnedRoomRow {
  id: string;
  name: string;
  tier: Tier;
  createdAt: Date;
  expiresAt: Date | null;
}
