/**
 * Read queries over the room read model's channels: a room's channel list (kept per room while its lastSeq stays
 * put), one channel, DMs and who hid them, name clashes, and the caller-and-channel check of presence events.
 * Parameterized SQL only; channel names are stored sealed under the room's key and opened here. RoomRepository
 * (repository.ts) extends it, so every caller keeps one repository and both share the pool, keyring and caches' bounds.
 */
import type { Pool, RoomKeyring } from '@ephemera/platform';
import type { AnyEventEnvelope } from '@ephemera/proto';
import { channelVisibleTo, type CallerRecord, type Channel } from '@ephemera/proto';
import {
  CHANNEL_NAME_PURPOSE,
  CHANNEL_NAME_PURPOSE_V1,
  channelNameHash,
  channelNameHashV1,
  memberKey,
} from './member-crypto.ts';
import { AppliedJoins, AtSeqCache } from './at-seq-cache.ts';
import {
  CHANNEL_COLUMNS,
  ROOM_CACHE_MS,
  ROOM_CACHE_ROOMS,
  toChannel,
  type RoomChannels,
  type WorkspaceRow,
} from './room-rows.ts';

export class ChannelRepository {
  /** channelsAt's channel lists, by room, with the room's lastSeq they were read at */
  private readonly channelCache = new AtSeqCache<RoomChannels>(ROOM_CACHE_ROOMS, ROOM_CACHE_MS);
  /** the joins this process recorded: over them the kept lists advance instead of being read again */
  protected readonly appliedJoins = new AppliedJoins(ROOM_CACHE_ROOMS);

  constructor(
    protected readonly pool: Pool,
    protected readonly keyring: RoomKeyring,
  ) {}

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
  /**
   * Events this process recorded (core.ts record): the joins are noted. Whichever path applies them (the recorder or
   * the own-events consumer), the sequence number names the same join.
   */
  noteRecorded(events: AnyEventEnvelope[]): void {
    for (const event of events)
      if (event.type === 'member.joined')
        this.appliedJoins.note(event.payload.workspaceId, event.sequence, event.payload.userId);
  }

  channelsAt(ws: Pick<WorkspaceRow, 'id' | 'lastSeq'>): Promise<RoomChannels> {
    // a join changes no channel: a list kept from before joins only is still the room's
    const sinceJoinsOnly = (older: { seq: number; value: Promise<RoomChannels> }) =>
      this.appliedJoins.between(ws.id, older.seq, ws.lastSeq) ? older.value : null;
    const read = async (): Promise<RoomChannels> => {
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
    };
    return this.channelCache.get({ id: ws.id, lastSeq: ws.lastSeq }, read, sinceJoinsOnly);
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
}
