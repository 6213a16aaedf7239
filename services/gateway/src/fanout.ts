/**
 * Fan-out: every replica consumes the event log (its own consumer group, from "now") and the presence bus, and
 * emits to the socket rooms of its own connections (what each event becomes: deliver.ts and deliver-presence.ts).
 * A replica that was down misses nothing for good: clients resync by sequence number after reconnecting.
 */
import {
  TOPICS,
  PRESENCE_CHANNEL,
  type AnyEventEnvelope,
  type PresenceApi,
  type PresenceSignal,
} from '@ephemera/proto';
import { contextFrom, inSpan, SpanKind, type EphemeralStore, type EventLog, type Logger } from '@ephemera/platform';
import type { GatewayServer as Server } from './socket-types.ts';
import { workspaceRoom } from './rooms.ts';
import { stopTyping } from './commands.ts';
import type { Calls } from './calls.ts';
import type { SentAcks } from './sent-acks.ts';
import { PresenceCoalescer, type BigRoomOptions } from './coalesce.ts';
import { deliver, socketsIn, type SessionsEnding } from './deliver.ts';
import { deliverPresence } from './deliver-presence.ts';

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
