/**
 * Fan-out: every replica consumes the event log (its own consumer group, from "now") and the presence bus, and
 * emits to the socket rooms of its own connections. Recipients are chosen here and only here.
 * A replica that was down misses nothing for good: clients resync by sequence number after reconnecting.
 */
import { S, TOPICS, PRESENCE_CHANNEL, type AnyEventEnvelope, type PresenceSignal } from '@ephemera/proto';
import { contextFrom, inSpan, SpanKind, type EphemeralStore, type EventLog, type Logger } from '@ephemera/platform';
import type { Server } from 'socket.io';
import { workspaceRoom, userRoom } from './rooms.ts';
import type { SocketData } from './commands.ts';

export function deliver(io: Server, event: AnyEventEnvelope): void {
  switch (event.type) {
    case 'message.sent': {
      const { message, audience } = event.payload;
      const target = audience.kind === 'workspace' ? workspaceRoom(message.workspaceId) : audience.userIds.map(userRoom);
      io.to(target).emit(S.message, message);
      return;
    }
    case 'channel.created': {
      const { channel } = event.payload;
      const target = channel.isPrivate ? channel.memberIds.map(userRoom) : workspaceRoom(channel.workspaceId);
      io.to(target).emit(S.channelCreated, channel);
      return;
    }
    case 'workspace.expired': {
      const room = workspaceRoom(event.payload.workspaceId);
      io.to(room).emit(S.workspaceDeleted, { workspaceId: event.payload.workspaceId, message: 'This room has expired' });
      // The room is gone: its sockets lose their session so nothing more can be sent in its name.
      for (const socket of io.of('/').adapter.rooms.get(room) ?? []) {
        const s = io.of('/').sockets.get(socket);
        if (!s) continue;
        (s.data as SocketData).session = null;
        s.rooms.forEach((r) => { if (r !== s.id) s.leave(r); });
      }
      return;
    }
    default:
      return; // member.joined, workspace.created: presence and the HTTP answer cover them
  }
}

export function deliverPresence(io: Server, signal: PresenceSignal): void {
  const room = workspaceRoom(signal.workspaceId);
  if (signal.kind === 'joined') io.to(room).emit(S.userJoined, { workspaceId: signal.workspaceId, user: signal.user });
  else io.to(room).emit(S.userLeft, { workspaceId: signal.workspaceId, userId: signal.userId, username: signal.username });
}

export async function startFanout(io: Server, deps: { log: EventLog; bus: EphemeralStore; gatewayId: string; logger: Logger }) {
  const subscription = await deps.log.subscribe({
    // A group of our own per boot: every replica sees every event, starting from now.
    groupId: `gateway-${deps.gatewayId}-${process.pid}-${Date.now()}`,
    topics: [TOPICS.room, TOPICS.messaging],
    fromBeginning: false,
    handler: async (delivery) => {
      await inSpan(`fan-out ${delivery.event.type}`, SpanKind.CONSUMER, async () => deliver(io, delivery.event),
        contextFrom(delivery.headers), { 'ephemera.workspace': delivery.key });
    },
  });
  const unsubscribe = await deps.bus.subscribe(PRESENCE_CHANNEL, (raw) => {
    try { deliverPresence(io, JSON.parse(raw) as PresenceSignal); } catch (err) { deps.logger.warn({ err }, 'bad presence signal'); }
  });
  return { async stop() { await subscription.stop(); await unsubscribe(); } };
}
