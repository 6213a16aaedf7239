/**
 * The room read model's rows as the repositories read them (the columns each query selects), and the wire shapes made
 * from them (a channel with its name opened, a member, the room as one member sees it, the room's changeable
 * properties). Apart from the queries (repository.ts, channel-repository.ts), which both use them.
 */
import type { RoomKey } from '@ephemera/platform';
import {
  channelVisibleTo,
  settingsForTier,
  type Channel,
  type RoomTheme,
  type RoomUser,
  type Tier,
  type Workspace,
  type WorkspaceUpdate,
} from '@ephemera/proto';
import { openChannelName } from './member-crypto.ts';

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
/** A room's members opened (repository.ts membersAt), and who holds which token now. */
export interface RoomMembers {
  rows: MemberRow[];
  byTokenHash: Map<string, MemberRow>;
}
export interface DepartureRow {
  userId: string;
  username: string;
  reason: 'left' | 'kicked';
}

export const WORKSPACE_COLUMNS = `id, name, tier, created_at AS "createdAt", expires_at AS "expiresAt",
  password_hash AS "passwordHash", created_by AS "createdBy", last_seq AS "lastSeq", custom_max_users AS "customMaxUsers", theme`;
export const MEMBER_COLUMNS = `user_id AS "userId", username, is_admin AS "isAdmin", joined_at AS "joinedAt", profile_picture AS "profilePicture"`;
export const CHANNEL_COLUMNS = `c.id, c.workspace_id AS "workspaceId", c.name, c.name_sealed AS "nameSealed", c.type, c.is_private AS "isPrivate",
  c.member_ids AS "memberIds", c.created_by AS "createdBy", c.created_at AS "createdAt"`;

export type ChannelRow = Channel & { createdAt: string | Date; nameSealed: boolean };
/** A stored channel with its name opened (`key`: the room's; none once the room is gone and being swept). */
export const toChannel = (key: RoomKey | null, r: ChannelRow): Channel => ({
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
export const ROOM_CACHE_ROOMS = 1_000;
export const ROOM_CACHE_MS = 60_000;

/** A room's channels, and who hid which DM (channelsAt). */
export interface RoomChannels {
  channels: Channel[];
  hiddenBy: Map<string, Set<string>>;
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
