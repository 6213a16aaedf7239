/**
 * One call's messages over the room's socket (docs/protocol.md "Calls"): the start, accept, reject and end commands,
 * the WebRTC signals to the other side, and the server's call events for this call's channel. Commands the caller
 * does not wait on are sent and forgotten: the call ends on this side either way.
 */
import { C, S } from '@ephemera/proto/client';
import type { CallType, ServerEvents, WebrtcSignalPayload } from '@ephemera/proto';
import { request, type RoomSocket } from '../socket.ts';

const ACK_TIMEOUT_MS = 10_000;

type Events = ServerEvents;

/** What the server says about this call (events of other channels are not passed on). */
export interface CallEventHandlers {
  accepted(): void;
  rejected(): void;
  ended(): void;
  signal(signal: WebrtcSignalPayload): void;
  /** the room's socket dropped: the call cannot go on */
  disconnected(): void;
}

export class CallSignaling {
  private readonly off: (() => void)[] = [];

  constructor(
    private readonly socket: RoomSocket,
    private readonly channelId: string,
    private readonly peerId: string,
  ) {}

  listen(handlers: CallEventHandlers): void {
    const ours = (p: { channelId: string }) => p.channelId === this.channelId;
    this.on(S.callAccepted, (p) => {
      if (ours(p)) handlers.accepted();
    });
    this.on(S.callRejected, (p) => {
      if (ours(p)) handlers.rejected();
    });
    this.on(S.callEnded, (p) => {
      if (ours(p)) handlers.ended();
    });
    this.on(S.webrtcSignal, (p) => {
      if (ours(p)) handlers.signal(p.signal);
    });
    this.on('disconnect' as keyof Events, () => handlers.disconnected());
  }

  /** The server's answer (its ICE servers, or its refusal), null when none came. */
  start(callType: CallType) {
    return request(
      this.socket,
      C.startCall,
      { channelId: this.channelId, targetUserId: this.peerId, callType },
      ACK_TIMEOUT_MS,
    ).catch(() => null);
  }

  /** The server's answer (its ICE servers, or its refusal), null when none came. */
  accept() {
    return request(
      this.socket,
      C.acceptCall,
      { channelId: this.channelId, callerId: this.peerId },
      ACK_TIMEOUT_MS,
    ).catch(() => null);
  }

  reject(): void {
    void request(this.socket, C.rejectCall, { channelId: this.channelId, callerId: this.peerId }, ACK_TIMEOUT_MS).catch(
      () => {},
    );
  }

  end(): void {
    void request(this.socket, C.endCall, { channelId: this.channelId }, ACK_TIMEOUT_MS).catch(() => {});
  }

  signal(signal: WebrtcSignalPayload): void {
    void request(
      this.socket,
      C.webrtcSignal,
      { channelId: this.channelId, targetUserId: this.peerId, signal },
      ACK_TIMEOUT_MS,
    ).catch(() => {});
  }

  /** Stop listening to the server's call events. */
  close(): void {
    for (const off of this.off) off();
  }

  private on<E extends keyof Events>(event: E, handler: Events[E]): void {
    const s = this.socket as unknown as { on(e: string, h: unknown): void; off(e: string, h: unknown): void };
    s.on(event, handler);
    this.off.push(() => s.off(event, handler));
  }
}
