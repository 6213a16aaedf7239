/**
 * What each event of the log becomes on this replica's sockets: the socket rooms that receive it (its audience: the
 * room, a channel's members, a user) and the frame sent; sessions that end (a member leaves or is kicked, the room
 * goes). Recipients are chosen here and only here; the consumer that calls it is fanout.ts.
 */
import {
  S,
  channelAudience,
  type Audience,
  type AnyEventEnvelope,
  type Channel,
  type CustomTheme,
  type ThemeId,
} from '@ephemera/proto';
import { ROOM_ENDED_TEXT } from '@ephemera/proto/client';
import type { GatewayServer as Server, GatewaySocket as Socket } from './socket-types.ts';
import { workspaceRoom, userRoom } from './rooms.ts';
import type { PresenceCoalescer } from './coalesce.ts';

export const targetOf = (workspaceId: string, audience: Audience): string | string[] =>
  audience.kind === 'workspace' ? workspaceRoom(workspaceId) : audience.userIds.map(userRoom);

/** The socket rooms of the users who see the channel (channelAudience). */
const channelTarget = (c: Channel) => targetOf(c.workspaceId, channelAudience(c));

/** Sockets of this replica in a socket room. */
export function socketsIn(io: Server, room: string): Socket[] {
  const ns = io.of('/');
  return [...(ns.adapter.rooms.get(room) ?? [])].flatMap((id) => {
    const s = ns.sockets.get(id);
    return s ? [s] : [];
  });
}

/** The session of these sockets ends: nothing more can be sent or received in the room's name. */
function endSessions(sockets: Socket[], workspaceId: string, disconnect: boolean): void {
  for (const s of sockets) {
    const data = s.data;
    if (data.session?.workspaceId !== workspaceId) continue;
    data.session = null;
    s.rooms.forEach((r) => {
      if (r !== s.id) void s.leave(r);
    });
    if (disconnect) s.disconnect(true);
  }
}

/** Before sessions end: their presence connections go (the gateway's disconnect handler sees no session after). */
export type SessionsEnding = (sockets: Socket[]) => void;

export function deliver(
  io: Server,
  event: AnyEventEnvelope,
  ends?: SessionsEnding,
  coalescer?: PresenceCoalescer,
): void {
  switch (event.type) {
    case 'message.sent': {
      const { message, audience, bodyGone } = event.payload;
      // deleted before it reached this gateway (its key is gone, docs/crypto.md "Messages"): nothing to show
      if (bodyGone) return;
      io.to(targetOf(message.workspaceId, audience)).emit(S.message, message);
      return;
    }
    case 'message.edited': {
      const { workspaceId, channelId, messageId, content, editedAt, audience, bodyGone } = event.payload;
      if (bodyGone) return;
      io.to(targetOf(workspaceId, audience)).emit(S.messageEdited, {
        workspaceId,
        channelId,
        messageId,
        content,
        isEdited: true,
        editedAt,
      });
      return;
    }
    case 'message.deleted': {
      const { workspaceId, channelId, messageId, audience } = event.payload;
      io.to(targetOf(workspaceId, audience)).emit(S.messageDeleted, { workspaceId, channelId, messageId });
      return;
    }
    case 'reaction.changed': {
      const { audience, ...p } = event.payload;
      io.to(targetOf(p.workspaceId, audience)).emit(S.reactionAdded, p);
      return;
    }
    case 'read.marked': {
      // Read receipts go live to DM and private-channel members only: in a public channel of a big room every
      // read would reach everyone (quadratic); there the sidebar's summaries carry read positions (docs/protocol.md).
      const { audience, ...p } = event.payload;
      if (audience.kind === 'users') io.to(audience.userIds.map(userRoom)).emit(S.readPositionUpdated, p);
      return;
    }
    case 'channel.created': {
      const { channel } = event.payload;
      if (channel.type === 'dm') {
        // The creator's sockets learn of it (their other tabs), the partner's get auto-open-dm.
        io.to(userRoom(channel.createdBy)).emit(S.channelCreated, channel);
        const partners = channel.memberIds.filter((id) => id !== channel.createdBy).map(userRoom);
        if (partners.length > 0)
          io.to(partners).emit(S.autoOpenDm, { workspaceId: channel.workspaceId, channelId: channel.id, channel });
        return;
      }
      io.to(channelTarget(channel)).emit(S.channelCreated, channel);
      return;
    }
    case 'channel.renamed': {
      const { channel } = event.payload;
      io.to(channelTarget(channel)).emit(S.channelUpdated, channel);
      return;
    }
    case 'channel.deleted': {
      // Only topic channels are deleted, so the event's isPrivate says whether it was for its members only.
      const { workspaceId, channelId, isPrivate, memberIds } = event.payload;
      io.to(targetOf(workspaceId, channelAudience({ membersOnly: isPrivate, memberIds }))).emit(S.channelDeleted, {
        workspaceId,
        channelId,
      });
      return;
    }
    case 'channel.members-changed': {
      const { channel, added, removed } = event.payload;
      const stayed = channel.memberIds.filter((id) => !added.includes(id));
      if (stayed.length > 0) io.to(stayed.map(userRoom)).emit(S.channelUpdated, channel);
      if (added.length > 0) io.to(added.map(userRoom)).emit(S.channelCreated, channel);
      if (removed.length > 0)
        io.to(removed.map(userRoom)).emit(S.channelDeleted, {
          workspaceId: channel.workspaceId,
          channelId: channel.id,
        });
      return;
    }
    case 'dm.hidden': {
      const { workspaceId, channelId, userId } = event.payload;
      io.to(userRoom(userId)).emit(S.dmDeletedForUser, { workspaceId, channelId });
      return;
    }
    case 'dm.reopened': {
      const { workspaceId, channelId, userId, channel } = event.payload;
      io.to(userRoom(userId)).emit(S.autoOpenDm, { workspaceId, channelId, channel });
      return;
    }
    case 'member.profile-updated': {
      const { workspaceId, userId, username, profilePicture } = event.payload;
      io.to(workspaceRoom(workspaceId)).emit(S.userProfileUpdated, { workspaceId, userId, username, profilePicture });
      return;
    }
    case 'member.left': {
      // Session revocation on every replica: the user's remaining sockets in this room are ended and disconnected
      // (their presence entries go with the disconnect); everyone else learns the member is gone.
      const { workspaceId, userId, username } = event.payload;
      endSessions(socketsIn(io, userRoom(userId)), workspaceId, true);
      if (coalescer?.change(workspaceId, { kind: 'left', userId, username, membershipEnded: true })) return;
      io.to(workspaceRoom(workspaceId)).emit(S.userLeft, { workspaceId, userId, username, membershipEnded: true });
      return;
    }
    case 'workspace.renamed':
    case 'workspace.password-changed':
    case 'workspace.max-users-changed':
    case 'workspace.extended':
    case 'workspace.tier-changed':
      // The room after the change, whole: a client that missed one converges on the next.
      io.to(workspaceRoom(event.payload.workspaceId)).emit(S.workspaceUpdated, event.payload.workspace);
      return;
    case 'workspace.theme-changed': {
      const { workspaceId, themeId, customTheme, changedBy, changedByName, logoSrc } = event.payload;
      io.to(workspaceRoom(workspaceId)).emit(S.themeChanged, {
        workspaceId,
        themeId: themeId as ThemeId,
        customTheme: customTheme as CustomTheme | null,
        changedBy,
        changedByName,
        logoSrc: logoSrc ?? null,
      });
      return;
    }
    case 'member.role-changed':
      io.to(workspaceRoom(event.payload.workspaceId)).emit(S.userUpdated, {
        workspaceId: event.payload.workspaceId,
        user: event.payload.user,
      });
      return;
    case 'member.kicked': {
      // Revocation on every replica (docs/product/security.md S2): the kicked user's sockets here hear why, lose
      // their session and
      // are disconnected; then everyone still in the room learns who was removed.
      const { workspaceId, userId, reason, kickedBy } = event.payload;
      const sockets = socketsIn(io, userRoom(userId)).filter((s) => s.data.session?.workspaceId === workspaceId);
      for (const s of sockets) s.emit(S.kicked, { workspaceId, reason, kickedBy });
      ends?.(sockets);
      endSessions(sockets, workspaceId, true);
      io.to(workspaceRoom(workspaceId)).emit(S.userKicked, { workspaceId, userId, kickedBy });
      return;
    }
    case 'workspace.claimed':
    case 'workspace.owner-token-issued': {
      // The owner's token was replaced: sessions joined with another token of this member end on every replica
      // (the credential is refused from now on, also by sockets that took it earlier). They are told, and keep their
      // connection: the client joins again with the token its browser holds now.
      const { workspaceId, userId, tokenHash } = event.payload;
      const sockets = socketsIn(io, userRoom(userId)).filter((s) => {
        const data = s.data;
        return data.session?.workspaceId === workspaceId && data.tokenHash !== tokenHash;
      });
      for (const s of sockets) s.emit(S.sessionReplaced, { workspaceId });
      ends?.(sockets);
      endSessions(sockets, workspaceId, false);
      return;
    }
    case 'workspace.deleted': {
      const { workspaceId } = event.payload;
      const room = workspaceRoom(workspaceId);
      io.to(room).emit(S.workspaceDeleted, { workspaceId, message: ROOM_ENDED_TEXT.deleted });
      const sockets = socketsIn(io, room);
      ends?.(sockets);
      endSessions(sockets, workspaceId, false);
      return;
    }
    case 'workspace.expired': {
      const room = workspaceRoom(event.payload.workspaceId);
      io.to(room).emit(S.workspaceDeleted, {
        workspaceId: event.payload.workspaceId,
        message: ROOM_ENDED_TEXT.expired,
      });
      // The room is gone: its sockets lose their session (and presence) so nothing more can be sent in its name.
      const sockets = socketsIn(io, room);
      ends?.(sockets);
      endSessions(sockets, event.payload.workspaceId, false);
      return;
    }
    default:
      return; // member.joined, workspace.created: presence and the HTTP answer cover them
  }
}
