/**
 * 1:1 calls in a DM (docs/product/calls.md; docs/calls.md). A call is ephemeral; only its answer is
 * recorded, as
 * call.connected (the superadmin's video-call figure; a failure to record it does not stop the call). Its state
 * lives in the ephemeral store (Redis when distributed, memory when embedded) so any gateway replica can act on it,
 * and every message to a party goes over the bus (CALL_CHANNEL): each replica emits to its own sockets of that
 * user. The room service decides who may call whom (authorizeCall: DM, membership, tier); this module keeps the
 * call: busy claims, ringing with a deadline, the one socket of each party in the call, and the end.
 *
 * Store keys: call:{channelId} (the call), call:busy:{userId} (claimed atomically with incrWithTtl: the first
 * claimer gets 1), call:of:{userId} (the user's call's channel), call:answered:{callId} (one accept wins), and the
 * sorted set call:leases of "{channelId}|{callId}" scored by deadline. Whoever removes a call's lease ends it
 * (zrem answers 1 to one caller only; ztakeBelow gives an expired one to one replica), so an end is announced once.
 * A ringing call's lease is its answer deadline; an active call's is renewed by the replicas holding its sockets,
 * so a call whose replicas all vanished ends by itself.
 */
import { randomUUID } from 'node:crypto';
import {
  C,
  S,
  CALL_CHANNEL,
  DomainError,
  type CallBusMessage,
  type CallEndReason,
  type CallType,
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
import { userRoom } from './rooms.ts';
import { iceServersFor, type IceConfig } from './ice.ts';

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

interface CallState {
  id: string;
  workspaceId: string;
  channelId: string;
  callType: CallType;
  callerId: string;
  calleeId: string;
  callerSocket: string;
  calleeSocket: string | null;
  state: 'ringing' | 'active';
}
/** What a socket in a call remembers (its disconnect ends the call; its replica renews the lease). */
export interface SocketCall {
  channelId: string;
  callId: string;
  active: boolean;
}

const leasesKey = (namespace?: string) => (namespace ? `${namespace}:call:leases` : 'call:leases');
const ACTIVE_LEASE_MS = 60_000;
const RENEW_MS = 20_000;
/** a call's keys outlive any call; the lease, not the key's expiry, ends calls */
const KEY_TTL_MS = 12 * 60 * 60 * 1000;
const callKey = (channelId: string) => `call:${channelId}`;
const busyKey = (userId: string) => `call:busy:${userId}`;
const ofKey = (userId: string) => `call:of:${userId}`;
const leaseOf = (c: CallState) => `${c.channelId}|${c.id}`;
const aad = (toUserId: string) => `call:${toUserId}`;

type Ack<E extends keyof ClientAcks> = Omit<Extract<ClientAcks[E], { success: true }>, 'success'>;
type Data = { call?: SocketCall };

export class Calls {
  private readonly sweeper: NodeJS.Timeout;
  private readonly renewer: NodeJS.Timeout;
  private unsubscribe: (() => Promise<void>) | null = null;
  /** the sorted set of call deadlines (ringing: the ring timeout; active: renewed while a replica holds a party) */
  private readonly leases: string;

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
    this.leases = leasesKey(deps.options.namespace);
    let sweeping = false; // a slow store must not pile sweeps up
    this.sweeper = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      this.sweep()
        .catch((err) => deps.logger.warn({ err }, 'call sweep failed'))
        .finally(() => {
          sweeping = false;
        });
    }, deps.options.sweepMs ?? 1000);
    this.renewer = setInterval(() => {
      this.renew().catch((err) => deps.logger.warn({ err }, 'call lease renewal failed'));
    }, RENEW_MS);
    this.sweeper.unref();
    this.renewer.unref();
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.deps.store.subscribe(CALL_CHANNEL, (raw) => {
      this.deliver(raw).catch((err) => this.deps.logger.warn({ err }, 'bad call signal'));
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
    const { store } = this.deps;
    if ((await store.incrWithTtl(busyKey(actor.userId), KEY_TTL_MS)) !== 1) throw new DomainError('ALREADY_IN_CALL');
    if ((await store.incrWithTtl(busyKey(p.targetUserId), KEY_TTL_MS)) !== 1) {
      await store.del(busyKey(actor.userId));
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
    await Promise.all([
      store.set(callKey(call.channelId), JSON.stringify(call), KEY_TTL_MS),
      store.set(ofKey(call.callerId), call.channelId, KEY_TTL_MS),
      store.set(ofKey(call.calleeId), call.channelId, KEY_TTL_MS),
    ]);
    await store.zadd(this.leases, Date.now() + this.deps.options.ringTimeoutMs, leaseOf(call));
    (socket.data as Data).call = { channelId: call.channelId, callId: call.id, active: false };
    await this.send(
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
    const { store } = this.deps;
    if ((await store.incrWithTtl(`call:answered:${call.id}`, KEY_TTL_MS)) !== 1)
      throw new DomainError('CALL_NOT_FOUND');
    // The ringing lease is the call: if the deadline sweep or a hang-up took it first, the call is over.
    if ((await store.zrem(this.leases, leaseOf(call))) !== 1) throw new DomainError('CALL_NOT_FOUND');
    const active: CallState = { ...call, state: 'active', calleeSocket: socket.id };
    await store.set(callKey(call.channelId), JSON.stringify(active), KEY_TTL_MS);
    await store.zadd(this.leases, Date.now() + ACTIVE_LEASE_MS, leaseOf(active));
    (socket.data as Data).call = { channelId: call.channelId, callId: call.id, active: true };
    await this.send(
      call.workspaceId,
      { toUserId: call.callerId, toSocketId: call.callerSocket, event: S.callAccepted },
      { channelId: call.channelId, accepterId: actor.userId, accepterName: actor.username },
    );
    // The callee's other tabs stop ringing.
    await this.send(
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
    if (!(await this.claimEnd(call))) throw new DomainError('CALL_NOT_FOUND');
    await this.release(call);
    await this.send(
      call.workspaceId,
      { toUserId: call.callerId, event: S.callRejected },
      { channelId: call.channelId, rejecterId: actor.userId, rejecterName: actor.username },
    );
    await this.send(
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
    const call = await this.load(p.channelId);
    if (!call || (call.callerId !== actor.userId && call.calleeId !== actor.userId))
      throw new DomainError('CALL_NOT_FOUND');
    await this.endSurely(call, 'ended', actor.userId);
    return { channelId: call.channelId };
  }

  async signal(
    socket: Socket,
    actor: SessionActor,
    p: ParsedClientPayload<typeof C.webrtcSignal>,
  ): Promise<Ack<typeof C.webrtcSignal>> {
    await this.deps.rooms.authorizeCall(actor, { event: C.webrtcSignal, channelId: p.channelId });
    const call = await this.load(p.channelId);
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
    await this.send(
      call.workspaceId,
      { toUserId: peer.id, toSocketId: peer.socket, event: S.webrtcSignal },
      { channelId: call.channelId, fromUserId: actor.userId, signal: p.signal },
    );
    return {};
  }

  // ---------- ends from outside the call's commands ----------

  /** A socket went: if it is a party's socket in a call, the call ends (a ringing callee's tab is not). */
  async socketGone(socket: Socket, userId: string | null): Promise<void> {
    const held = (socket.data as Data).call;
    if (!held) return;
    delete (socket.data as Data).call;
    const call = await this.load(held.channelId);
    if (call?.id === held.callId) await this.endSurely(call, 'disconnected', userId);
  }

  /** The user left the room or was removed, or the room is gone: their call ends (ringing or not). */
  async userGone(userId: string, reason: CallEndReason): Promise<void> {
    const channelId = await this.deps.store.get(ofKey(userId));
    if (!channelId) return;
    const call = await this.load(channelId);
    if (call && (call.callerId === userId || call.calleeId === userId)) await this.endSurely(call, reason, userId);
  }

  // ---------- internals ----------

  private async ringingFor(actor: SessionActor, channelId: string, callerId: string): Promise<CallState> {
    const call = await this.load(channelId);
    if (!call || call.state !== 'ringing' || call.calleeId !== actor.userId || call.callerId !== callerId)
      throw new DomainError('CALL_NOT_FOUND');
    return call;
  }

  private async load(channelId: string): Promise<CallState | null> {
    const raw = await this.deps.store.get(callKey(channelId));
    return raw ? (JSON.parse(raw) as CallState) : null;
  }

  /** Take the call's lease: true for exactly one ender. */
  private async claimEnd(call: CallState): Promise<boolean> {
    return (await this.deps.store.zrem(this.leases, leaseOf(call))) === 1;
  }

  /**
   * End a call that may be changing hands: an accept takes the ringing lease before it adds the active one, so an end
   * in between finds no lease. Look once more after the accept had time to finish; an ended call is gone by then.
   */
  private async endSurely(call: CallState, reason: CallEndReason, endedBy: string | null): Promise<void> {
    if (await this.end(call, reason, endedBy)) return;
    await new Promise((r) => setTimeout(r, 200));
    const again = await this.load(call.channelId);
    if (again?.id === call.id) await this.end(again, reason, endedBy);
  }

  /** True when this caller ended it (took the lease); false when someone else had. */
  private async end(call: CallState, reason: CallEndReason, endedBy: string | null, claimed = false): Promise<boolean> {
    if (!claimed && !(await this.claimEnd(call))) return false;
    // Free both users first: telling them can fail (a deleted room's key is gone, and its members hear workspace-deleted).
    await this.release(call);
    const payload = { channelId: call.channelId, reason, endedBy };
    for (const toUserId of [call.callerId, call.calleeId]) {
      await this.send(call.workspaceId, { toUserId, callId: call.id, event: S.callEnded }, payload).catch((err) =>
        this.deps.logger.warn({ err, channelId: call.channelId }, 'call end not announced'),
      );
    }
    return true;
  }

  private async release(call: CallState): Promise<void> {
    const { store } = this.deps;
    // Only this call's keys: a newer call of the same DM (or of either user) keeps its own.
    const current = await this.load(call.channelId);
    if (current?.id === call.id) await store.del(callKey(call.channelId));
    for (const userId of [call.callerId, call.calleeId]) {
      if ((await store.get(ofKey(userId))) === call.channelId) await store.del(ofKey(userId));
      await store.del(busyKey(userId));
    }
  }

  /** Expired leases: a call nobody answered in time, or an active call whose replicas stopped renewing it. */
  private async sweep(): Promise<void> {
    for (const { member } of await this.deps.store.ztakeBelow(this.leases, Date.now())) {
      const [channelId, callId] = member.split('|');
      const call = await this.load(channelId!);
      if (call?.id !== callId) continue;
      await this.end(call, call.state === 'ringing' ? 'timeout' : 'disconnected', null, true);
    }
  }

  /** Active calls with a socket here stay alive (the lease is renewed only while it is still held: zadd after an end is harmless). */
  private async renew(): Promise<void> {
    for (const socket of this.io.of('/').sockets.values()) {
      const held = (socket.data as Data).call;
      if (!held?.active) continue;
      await this.deps.store.zadd(this.leases, Date.now() + ACTIVE_LEASE_MS, `${held.channelId}|${held.callId}`);
    }
  }

  private async send(
    workspaceId: string,
    to: Omit<CallBusMessage, 'workspaceId' | 'sealed'>,
    payload: object,
  ): Promise<void> {
    const key = await this.deps.keyring.key(workspaceId);
    if (!key) throw new DomainError('WORKSPACE_NOT_FOUND');
    const message: CallBusMessage = { ...to, workspaceId, sealed: key.sealJson(payload, aad(to.toUserId)) };
    await this.deps.store.publish(CALL_CHANNEL, JSON.stringify(message));
  }

  /** A bus message: emitted to this replica's sockets of the user (all, all but one, or the one in the call). */
  private async deliver(raw: string): Promise<void> {
    const message = JSON.parse(raw) as CallBusMessage;
    const ns = this.io.of('/');
    const room = ns.adapter.rooms.get(userRoom(message.toUserId));
    if (!room || room.size === 0) return; // no socket of the user here
    const key = await this.deps.keyring.key(message.workspaceId);
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
