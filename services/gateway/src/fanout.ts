/**
 * Fan-out: every replica consumes the event log (its own consumer group, from "now") and the presence bus, and
 * emits to the socket rooms of its own connections. Recipients are chosen here and only here.
 * A replica that was down misses nothing for good: clients resync by sequence number after reconnecting.
 */
import {
  S,
  TOPICS,
  PRESENCE_CHANNEL,
  channelAudience,
  type Audience,
  type AnyEventEnvelope,
  type Channel,
  type CustomTheme,
  type PresenceApi,
  type PresenceSignal,
  type ThemeId,
} from '@ephemera/proto';
import { ROOM_ENDED_TEXT } from '@ephemera/proto/client';
import { contextFrom, inSpan, SpanKind, type EphemeralStore, type EventLog, type Logger } from '@ephemera/platform';
import type { GatewayServer as Server, GatewaySocket as Socket } from './socket-types.ts';
import { workspaceRoom, userRoom } from './rooms.ts';
import { stopTyping } from './commands.ts';
import type { Calls } from './calls.ts';
import type { SentAcks } from './sent-acks.ts';
import { PresenceCoalescer, type BigRoomOptions } from './coalesce.ts';

const targetOf = (workspaceId: string, audience: Audience): string | string[] =>
  audience.kind === 'workspace' ? workspaceRoom(workspaceId) : audience.userIds.map(userRoom);

/** The socket rooms of the users who see the channel (channelAudience). */
const channelTarget = (c: Channel) => targetOf(c.workspaceId, channelAudience(c));

/** Sockets of this replica in a socket room. */
function socketsIn(io: Server, room: string): Socket[] {
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

/** A presence signal to the room's sockets here; a big room's changes through the coalescer (coalesce.ts). */
export function deliverPresence(io: Server, signal: PresenceSignal, coalescer?: PresenceCoalescer): void {
  if (coalescer && queued(coalescer, signal)) return;
  switch (signal.kind) {
    case 'joined':
      io.to(workspaceRoom(signal.workspaceId)).emit(S.userJoined, {
        workspaceId: signal.workspaceId,
        user: signal.user,
      });
      return;
    case 'left':
      io.to(workspaceRoom(signal.workspaceId)).emit(S.userLeft, {
        workspaceId: signal.workspaceId,
        userId: signal.userId,
        username: signal.username,
      });
      return;
    case 'status':
      io.to(workspaceRoom(signal.workspaceId)).emit(S.userPresenceUpdated, {
        workspaceId: signal.workspaceId,
        userId: signal.userId,
        status: signal.status,
      });
      return;
    case 'typing': {
      // Only those who can read the channel. A public channel's typing goes to the whole room in one broadcast,
      // the typer's own sockets included (clients drop their own): socket.io's uWS fast path publishes once only
      // without an `except` (docs/product/performance.md W2). A private channel or DM names its few members, minus
      // the typer.
      const { workspaceId, channelId, userId, username } = signal;
      const to =
        signal.audience.kind === 'workspace'
          ? io.to(workspaceRoom(workspaceId))
          : io.to(signal.audience.userIds.filter((id) => id !== userId).map(userRoom));
      if (signal.typing) to.emit(S.userTyping, { workspaceId, channelId, userId, username });
      else to.emit(S.userStoppedTyping, { workspaceId, channelId, userId });
      return;
    }
  }
}

/** True when the coalescer took the signal (a big room's change or public-channel typing). */
function queued(coalescer: PresenceCoalescer, signal: PresenceSignal): boolean {
  switch (signal.kind) {
    case 'joined':
      return coalescer.change(signal.workspaceId, { kind: 'joined', user: signal.user });
    case 'left':
      return coalescer.change(signal.workspaceId, { kind: 'left', userId: signal.userId, username: signal.username });
    case 'status':
      return coalescer.change(signal.workspaceId, { kind: 'status', userId: signal.userId, status: signal.status });
    case 'typing':
      return signal.audience.kind === 'workspace' && coalescer.typing(signal);
  }
}

/** Before the sessions end (the room's sockets are still in its socket room): the calls of those leaving end. */
function endCalls(io: Server, event: AnyEventEnvelope, calls: Calls | undefined, logger: Logger): void {
  if (!calls) return;
  const gone = (userId: string, reason: 'left' | 'room-deleted') =>
    calls.userGone(userId, reason).catch((err) => logger.warn({ err }, 'call end failed'));
  switch (event.type) {
    case 'member.left':
    case 'member.kicked':
      void gone(event.payload.userId, 'left');
      return;
    case 'workspace.deleted':
    case 'workspace.expired': {
      const users = new Set(socketsIn(io, workspaceRoom(event.payload.workspaceId)).map((s) => s.data.session?.userId));
      for (const userId of users) if (userId) void gone(userId, 'room-deleted');
      return;
    }
    default:
  }
}

export async function startFanout(
  io: Server,
  deps: {
    log: EventLog;
    bus: EphemeralStore;
    gatewayId: string;
    logger: Logger;
    presence?: PresenceApi;
    /** calls end when a party leaves, is kicked, or the room goes (calls.ts) */
    calls?: Calls;
    /** sends of this replica waiting for their message (sent-acks.ts): answered before it is broadcast */
    sentAcks?: SentAcks;
    /** presence signals carry sealed names (sealed-presence.ts): opened before delivery; null drops the signal */
    openPresenceSignal: (signal: PresenceSignal) => Promise<PresenceSignal | null>;
    /** big rooms' thresholds (default BIG_ROOM; coalesce.ts) */
    bigRoom?: Partial<BigRoomOptions>;
  },
) {
  const coalescer = new PresenceCoalescer(io, deps.bigRoom);
  // A kicked user's or a deleted room's connections leave presence now, not when their entries expire.
  const ends: SessionsEnding = (sockets) => {
    for (const s of sockets) {
      const session = s.data.session;
      if (!session || !deps.presence) continue;
      stopTyping(s, session, deps.presence).catch((err) => deps.logger.warn({ err }, 'typing stop failed'));
      deps.presence
        .disconnect({ workspaceId: session.workspaceId, userId: session.userId, connectionId: s.id })
        .catch((err) => deps.logger.warn({ err }, 'presence disconnect failed'));
    }
  };
  const subscription = await deps.log.subscribe({
    // A group of our own per boot: every replica sees every event, starting from now.
    groupId: `gateway-${deps.gatewayId}-${process.pid}-${Date.now()}`,
    topics: [TOPICS.room, TOPICS.messaging],
    fromBeginning: false,
    handler: async (delivery) => {
      if (delivery.event.type === 'message.sent') deps.sentAcks?.logged(delivery.event.payload.message);
      endCalls(io, delivery.event, deps.calls, deps.logger);
      await inSpan(
        `fan-out ${delivery.event.type}`,
        SpanKind.CONSUMER,
        async () => deliver(io, delivery.event, ends, coalescer),
        contextFrom(delivery.headers),
        { 'ephemera.workspace': delivery.key },
      );
    },
  });
  const unsubscribe = await deps.bus.subscribe(PRESENCE_CHANNEL, (raw) => {
    let signal: PresenceSignal;
    try {
      signal = JSON.parse(raw) as PresenceSignal;
    } catch (err) {
      deps.logger.warn({ err }, 'bad presence signal');
      return;
    }
    // The room's key is cached after its first signal, so signals of one room are delivered in arrival order.
    deps
      .openPresenceSignal(signal)
      .then((opened) => {
        if (opened) deliverPresence(io, opened, coalescer);
      })
      .catch((err) => deps.logger.warn({ err }, 'bad presence signal'));
  });
  return {
    async stop() {
      await subscription.stop();
      await unsubscribe();
      coalescer.stop();
    },
  };
}
