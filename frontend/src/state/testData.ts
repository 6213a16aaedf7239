/** Test factories for room state tests. */
import type { Channel, Message, RoomUser, Workspace } from '@ephemera/proto';
import { settingsForTier } from '@ephemera/proto/client';

export const me: RoomUser = {
  id: 'u-me',
  username: 'alice',
  isAdmin: true,
  isOwner: true,
  profilePicture: null,
  presenceStatus: 'online',
  joinedAt: '2025-01-01T00:00:00.000Z',
};
export const other: RoomUser = {
  id: 'u-bob',
  username: 'bob',
  isAdmin: false,
  isOwner: false,
  profilePicture: null,
  presenceStatus: 'online',
  joinedAt: '2025-01-01T00:00:00.000Z',
};

export function channel(id: string, name = id, extra: Partial<Channel> = {}): Channel {
  return {
    id,
    workspaceId: 'w1',
    name,
    type: 'topic',
    isPrivate: false,
    memberIds: [],
    createdBy: me.id,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...extra,
  };
}

export function workspace(channels: Channel[] = [channel('c1', 'general')]): Workspace {
  return {
    id: 'w1',
    workspaceId: 'w1',
    name: 'team',
    createdBy: me.id,
    createdAt: '2025-01-01T00:00:00.000Z',
    expiresAt: null,
    isPasswordProtected: false,
    tier: 'free',
    settings: settingsForTier('free'),
    users: [me, other],
    channels,
    theme: null,
  };
}

let n = 0;
export function message(seq: number, extra: Partial<Message> = {}): Message {
  n += 1;
  return {
    id: `m${seq}`,
    clientMessageId: `cm${seq}x${n}`,
    workspaceId: 'w1',
    channelId: 'c1',
    seq,
    authorId: other.id,
    authorName: other.username,
    profilePicture: null,
    timestamp: new Date(Date.UTC(2030, 0, 1, 0, 0, seq)).toISOString(),
    type: 'text',
    content: `message ${seq}`,
    isEdited: false,
    replyTo: null,
    reactions: {},
    linkPreview: null,
    editedAt: null,
    file: null,
    ...extra,
  };
}
