/**
 * 1:1 calls in a DM (docs/product/calls.md; docs/calls.md). A call is ephemeral; only its answer is
 * recorded, as
 * call.connected (the superadmin's video-call figure; a failure to record it does not stop the call). Its state
 * lives in the ephemeral store (Redis when distributed, memory when embedded) so any gateway replica can act on it,
 * and every message to a party goes over the bus (CALL_CHANNEL): each replica emits to its own sockets of that
 * user. The room service decides who may call whom (authorizeCall: DM, membership, tier); this module keeps the
 * call: busy claims, ringing with a deadline, the one socket of each party in the call, and the end.
 *
 * The call's state, its keys and its lease are call-store.ts's, the messages between replicas call-bus.ts's, how a call
 * ends call-ends.ts's. A ringing call's lease is its answer deadline; an
 * active call's is renewed by the replicas holding its sockets, so a call whose replicas all vanished ends by itself.
 */
import { randomUUID } from 'node:crypto';
import {
  C,
  S,
  CALL_CHANNEL,
  DomainError,
  type CallEndReason,
  type ClientAcks,
  type ParsedClientPayload,
  type RoomApi,
  type SessionActor,
} from '@ephemera/proto';
import {
  createRecorder,
  makeEvent,
  userActor,
  type EphemeralStore,
  type EventLog,
  type Logger,
  type RoomKeyring,
} from '@ephemera/platform';
import type { GatewayServer as Server, GatewaySocket as Socket } from './socket-types.ts';
import { iceServersFor, type IceConfig } from './ice.ts';
import { ACTIVE_LEASE_MS, CallStore, type CallState } from './call-store.ts';
import { CallBus, type CallSocketData as Data } from './call-bus.ts';
import { CallEnds } from './call-ends.ts';

export interface CallOptions {
  /** an unanswered call ends after this (the spec's 30 s; tests shorten it) */
  ringTimeoutMs: number;
  ice: IceConfig;
  /** how often expired leases are looked for */
  sweepMs?: number;
  /**
   * EVENT_LOG_NAMESPACE: deployments (or test stacks) sharing one Redis each sweep only their own leases. The sweep
   * takes every expired lease it finds, and a replica of another deployment cannot end a call of a room it does not
   * know: the call then never ended (a test stack's call outlived its ring timeout while another stack ran).
   */
  namespace?: string;
}

const RENEW_MS = 20_000;

type Ack<E extends keyof ClientAcks> = Omit<Extract<ClientAcks[E], { success: true }>, 'success'>;

export class Calls {
  private readonly sweeper: NodeJS.Timeout;
  private readonly renewer: NodeJS.Timeout;
  private unsubscribe: (() => Promise<void>) | null = null;
  private readonly calls: CallStore;
  private readonly bus: CallBus;
  private readonly ends: CallEnds;

  constructor(
    private readonly io: Server,
    private readonly deps: {
      rooms: RoomApi;
      store: EphemeralStore;
      keyring: RoomKeyring;
      logger: Logger;
      options: CallOptions;
      /** where the one durable fact of a call (call.connected: feature usage) is recorded; absent: not recorded */
      log?: EventLog;
    },
  ) {
    this.calls = new CallStore(deps.store, deps.options.namespace);
    this.bus = new CallBus(io, deps.store, deps.keyring);
    this.ends = new CallEnds(io, this.calls, this.bus, deps.logger);
    let sweeping = false; // a slow store must not pile sweeps up
    this.sweeper = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      this.ends
        .sweep()
        .catch((err) => deps.logger.warn({ err }, 'call sweep failed'))
        .finally(() => {
          sweeping = false;
        });
    }, deps.options.sweepMs ?? 1000);
    this.renewer = setInterval(() => {
      this.ends.renew().catch((err) => deps.logger.warn({ err }, 'call lease renewal failed'));
    }, RENEW_MS);
    this.sweeper.unref();
    this.renewer.unref();
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.deps.store.subscribe(CALL_CHANNEL, (raw) => {
      this.bus.deliver(raw).catch((err) => this.deps.logger.warn({ err }, 'bad call signal'));
    });
  }

  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    clearInterval(this.renewer);
    await this.unsubscribe?.();
  }

  // ---------- commands ----------

  async startCall(
    socket: Socket,
    actor: SessionActor,
    p: ParsedClientPayload<typeof C.startCall>,
  ): Promise<Ack<typeof C.startCall>> {
    await this.deps.rooms.authorizeCall(actor, {
      event: C.startCall,
      channelId: p.channelId,
      peerId: p.targetUserId,
      callType: p.callType,
    });
    if (!(await this.calls.claimBusy(actor.userId))) throw new DomainError('ALREADY_IN_CALL');
    if (!(await this.calls.claimBusy(p.targetUserId))) {
      await this.calls.freeBusy(actor.userId);
      throw new DomainError('USER_BUSY');
    }
    const call: CallState = {
      id: randomUUID(),
      workspaceId: actor.workspaceId,
      channelId: p.channelId,
      callType: p.callType,
      callerId: actor.userId,
      calleeId: p.targetUserId,
      callerSocket: socket.id,
      calleeSocket: null,
      state: 'ringing',
    };
    await this.calls.ring(call, Date.now() + this.deps.options.ringTimeoutMs);
    (socket.data as Data).call = { channelId: call.channelId, callId: call.id, active: false };
    await this.bus.send(
      call.workspaceId,
      { toUserId: call.calleeId, event: S.incomingCall },
      {
        workspaceId: call.workspaceId,
        channelId: call.channelId,
        callerId: actor.userId,
        callerName: actor.username,
        callType: call.callType,
      },
    );
    return {
      channelId: call.channelId,
      callType: call.callType,
      iceServers: iceServersFor(actor.userId, this.deps.options.ice),
      ringTimeoutMs: this.deps.options.ringTimeoutMs,
    };
  }

  async acceptCall(
    socket: Socket,
    actor: SessionActor,
    p: ParsedClientPayload<typeof C.acceptCall>,
  ): Promise<Ack<typeof C.acceptCall>> {
    // The tier was checked when the call started (the caller's start-call); the DM and both members are checked again.
    await this.deps.rooms.authorizeCall(actor, { event: C.acceptCall, channelId: p.channelId, peerId: p.callerId });
    const call = await this.ringingFor(actor, p.channelId, p.callerId);
    if (!(await this.calls.claimAnswer(call.id))) throw new DomainError('CALL_NOT_FOUND');
    // The ringing lease is the call: if the deadline sweep or a hang-up took it first, the call is over.
    if (!(await this.calls.takeLease(call))) throw new DomainError('CALL_NOT_FOUND');
    const active: CallState = { ...call, state: 'active', calleeSocket: socket.id };
    await this.calls.save(active);
    await this.calls.lease(active.channelId, active.id, Date.now() + ACTIVE_LEASE_MS);
    (socket.data as Data).call = { channelId: call.channelId, callId: call.id, active: true };
    await this.bus.send(
      call.workspaceId,
      { toUserId: call.callerId, toSocketId: call.callerSocket, event: S.callAccepted },
      { channelId: call.channelId, accepterId: actor.userId, accepterName: actor.username },
    );
    // The callee's other tabs stop ringing.
    await this.bus.send(
      call.workspaceId,
      { toUserId: call.calleeId, exceptSocketId: socket.id, callId: call.id, event: S.callEnded },
      { channelId: call.channelId, reason: 'answered-elsewhere' satisfies CallEndReason, endedBy: actor.userId },
    );
    // Not awaited: the ack carries the callee's ICE servers, and a slow append must not hold up the connection.
    void this.recordConnected(active, actor.userId);
    return {
      channelId: call.channelId,
      callType: call.callType,
      iceServers: iceServersFor(actor.userId, this.deps.options.ice),
    };
  }

  /** call.connected for the usage figures; a failure to record it is logged and the call goes on (it is a statistic). */
  private async recordConnected(call: CallState, accepterId: string): Promise<void> {
    if (!this.deps.log) return;
    const event = makeEvent(
      'call.connected',
      call.id,
      1,
      {
        workspaceId: call.workspaceId,
        channelId: call.channelId,
        callId: call.id,
        callType: call.callType,
        connectedAt: new Date().toISOString(),
      },
      userActor(accepterId),
    );
    // the write path without a read model: the gateway only appends (platform/write-path.ts)
    await createRecorder({ log: this.deps.log })
      .record([event])
      .catch((err) => this.deps.logger.warn({ err, callId: call.id }, 'call.connected not recorded'));
  }

  async rejectCall(
    _socket: Socket,
    actor: SessionActor,
    p: ParsedClientPayload<typeof C.rejectCall>,
  ): Promise<Ack<typeof C.rejectCall>> {
    await this.deps.rooms.authorizeCall(actor, { event: C.rejectCall, channelId: p.channelId });
    const call = await this.ringingFor(actor, p.channelId, p.callerId);
    if (!(await this.calls.takeLease(call))) throw new DomainError('CALL_NOT_FOUND');
    await this.calls.release(call);
    await this.bus.send(
      call.workspaceId,
      { toUserId: call.callerId, event: S.callRejected },
      { channelId: call.channelId, rejecterId: actor.userId, rejecterName: actor.username },
    );
    await this.bus.send(
      call.workspaceId,
      { toUserId: call.calleeId, callId: call.id, event: S.callEnded },
      { channelId: call.channelId, reason: 'ended', endedBy: actor.userId },
    );
    return { channelId: call.channelId };
  }

  async endCall(
    _socket: Socket,
    actor: SessionActor,
    p: ParsedClientPayload<typeof C.endCall>,
  ): Promise<Ack<typeof C.endCall>> {
    await this.deps.rooms.authorizeCall(actor, { event: C.endCall, channelId: p.channelId });
    const call = await this.calls.load(p.channelId);
    if (!call || (call.callerId !== actor.userId && call.calleeId !== actor.userId))
      throw new DomainError('CALL_NOT_FOUND');
    await this.ends.endSurely(call, 'ended', actor.userId);
    return { channelId: call.channelId };
  }

  async signal(
    socket: Socket,
    actor: SessionActor,
    p: ParsedClientPayload<typeof C.webrtcSignal>,
  ): Promise<Ack<typeof C.webrtcSignal>> {
    await this.deps.rooms.authorizeCall(actor, { event: C.webrtcSignal, channelId: p.channelId });
    const call = await this.calls.load(p.channelId);
    // Only between the two sockets of an active call, and only to the other party.
    const mine =
      call &&
      ((call.callerId === actor.userId && call.callerSocket === socket.id) ||
        (call.calleeId === actor.userId && call.calleeSocket === socket.id));
    if (!call || call.state !== 'active' || !mine) throw new DomainError('CALL_NOT_FOUND');
    const peer =
      call.callerId === actor.userId
        ? { id: call.calleeId, socket: call.calleeSocket! }
        : { id: call.callerId, socket: call.callerSocket };
    if (p.targetUserId !== peer.id) throw new DomainError('NOT_DM_MEMBER');
    await this.bus.send(
      call.workspaceId,
      { toUserId: peer.id, toSocketId: peer.socket, event: S.webrtcSignal },
      { channelId: call.channelId, fromUserId: actor.userId, signal: p.signal },
    );
    return {};
  }

  // ---------- ends from outside the call's commands (call-ends.ts) ----------

  /** A socket went: if it is a party's socket in a call, the call ends (a ringing callee's tab is not). */
  socketGone(socket: Socket, userId: string | null): Promise<void> {
    return this.ends.socketGone(socket, userId);
  }

  /** The user left the room or was removed, or the room is gone: their call ends (ringing or not). */
  userGone(userId: string, reason: CallEndReason): Promise<void> {
    return this.ends.userGone(userId, reason);
  }

  // ---------- internals ----------

  private async ringingFor(actor: SessionActor, channelId: string, callerId: string): Promise<CallState> {
    const call = await this.calls.load(channelId);
    if (!call || call.state !== 'ringing' || call.calleeId !== actor.userId || call.callerId !== callerId)
      throw new DomainError('CALL_NOT_FOUND');
    return call;
  }
}
