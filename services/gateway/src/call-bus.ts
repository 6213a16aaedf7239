/**
 * Call messages between gateway replicas (docs/calls.md): every message to a call's party goes over the bus
 * (CALL_CHANNEL), sealed under the room's key for that user, and each replica emits it to its own sockets of the user
 * (all of them, all but one, or the one in the call). The commands that send them are calls.ts's.
 */
import { S, CALL_CHANNEL, DomainError, type CallBusMessage } from '@ephemera/proto';
import type { EphemeralStore, RoomKeyring } from '@ephemera/platform';
import type { GatewayServer as Server } from './socket-types.ts';
import { userRoom } from './rooms.ts';

/** What a socket in a call remembers (its disconnect ends the call; its replica renews the lease). */
export interface SocketCall {
  channelId: string;
  callId: string;
  active: boolean;
}
/** a socket's data as the calls read it */
export type CallSocketData = { call?: SocketCall };
type Data = CallSocketData;

const aad = (toUserId: string) => `call:${toUserId}`;

export class CallBus {
  constructor(
    private readonly io: Server,
    private readonly store: EphemeralStore,
    private readonly keyring: RoomKeyring,
  ) {}

  async send(workspaceId: string, to: Omit<CallBusMessage, 'workspaceId' | 'sealed'>, payload: object): Promise<void> {
    const key = await this.keyring.key(workspaceId);
    if (!key) throw new DomainError('WORKSPACE_NOT_FOUND');
    const message: CallBusMessage = { ...to, workspaceId, sealed: key.sealJson(payload, aad(to.toUserId)) };
    await this.store.publish(CALL_CHANNEL, JSON.stringify(message));
  }

  /** A bus message: emitted to this replica's sockets of the user (all, all but one, or the one in the call). */
  async deliver(raw: string): Promise<void> {
    const message = JSON.parse(raw) as CallBusMessage;
    const ns = this.io.of('/');
    const room = ns.adapter.rooms.get(userRoom(message.toUserId));
    if (!room || room.size === 0) return; // no socket of the user here
    const key = await this.keyring.key(message.workspaceId);
    if (!key) return;
    const payload = key.openJson<Record<string, unknown>>(message.sealed, aad(message.toUserId));
    if (message.toSocketId) {
      const socket = room.has(message.toSocketId) ? ns.sockets.get(message.toSocketId) : undefined;
      if (!socket) return;
      const held = (socket.data as Data).call;
      if (held && message.event === S.callAccepted && held.channelId === payload.channelId) held.active = true;
      socket.emit(message.event, payload as never); // built for this event by the sending replica (relay), sealed in transit
      return;
    }
    if (message.event === S.callEnded) {
      // The call is over for these sockets: their disconnect no longer ends anything.
      for (const id of room) {
        const s = ns.sockets.get(id);
        if (id !== message.exceptSocketId && (s?.data as Data | undefined)?.call?.callId === message.callId)
          delete (s!.data as Data).call;
      }
    }
    const target = this.io.to(userRoom(message.toUserId));
    (message.exceptSocketId ? target.except(message.exceptSocketId) : target).emit(message.event, payload as never);
  }
}
