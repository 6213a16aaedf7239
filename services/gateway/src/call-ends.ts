/**
 * How a call ends (docs/calls.md): a party's socket goes, a party leaves the room or the room goes, or its lease
 * runs out (a ringing call nobody answered, an active call whose replicas stopped renewing it). Whoever takes the
 * call's lease ends it, so an end is announced once; both parties are freed first. The commands (calls.ts) end calls
 * through here too.
 */
import { S, type CallEndReason } from '@ephemera/proto';
import type { Logger } from '@ephemera/platform';
import type { GatewayServer as Server, GatewaySocket as Socket } from './socket-types.ts';
import { ACTIVE_LEASE_MS, type CallState, type CallStore } from './call-store.ts';
import type { CallBus, CallSocketData as Data } from './call-bus.ts';

export class CallEnds {
  constructor(
    private readonly io: Server,
    private readonly calls: CallStore,
    private readonly bus: CallBus,
    private readonly logger: Logger,
  ) {}

  /** A socket went: if it is a party's socket in a call, the call ends (a ringing callee's tab is not). */
  async socketGone(socket: Socket, userId: string | null): Promise<void> {
    const held = (socket.data as Data).call;
    if (!held) return;
    delete (socket.data as Data).call;
    const call = await this.calls.load(held.channelId);
    if (call?.id === held.callId) await this.endSurely(call, 'disconnected', userId);
  }

  /** The user left the room or was removed, or the room is gone: their call ends (ringing or not). */
  async userGone(userId: string, reason: CallEndReason): Promise<void> {
    const channelId = await this.calls.channelOf(userId);
    if (!channelId) return;
    const call = await this.calls.load(channelId);
    if (call && (call.callerId === userId || call.calleeId === userId)) await this.endSurely(call, reason, userId);
  }

  /**
   * End a call that may be changing hands: an accept takes the ringing lease before it adds the active one, so an end
   * in between finds no lease. Look once more after the accept had time to finish; an ended call is gone by then.
   */
  async endSurely(call: CallState, reason: CallEndReason, endedBy: string | null): Promise<void> {
    if (await this.end(call, reason, endedBy)) return;
    await new Promise((r) => setTimeout(r, 200));
    const again = await this.calls.load(call.channelId);
    if (again?.id === call.id) await this.end(again, reason, endedBy);
  }

  /** True when this caller ended it (took the lease); false when someone else had. */
  async end(call: CallState, reason: CallEndReason, endedBy: string | null, claimed = false): Promise<boolean> {
    if (!claimed && !(await this.calls.takeLease(call))) return false;
    // Free both users first: telling them can fail (a deleted room's key is gone, and its members hear workspace-deleted).
    await this.calls.release(call);
    const payload = { channelId: call.channelId, reason, endedBy };
    for (const toUserId of [call.callerId, call.calleeId]) {
      await this.bus
        .send(call.workspaceId, { toUserId, callId: call.id, event: S.callEnded }, payload)
        .catch((err) => this.logger.warn({ err, channelId: call.channelId }, 'call end not announced'));
    }
    return true;
  }

  /** Expired leases: a call nobody answered in time, or an active call whose replicas stopped renewing it. */
  async sweep(): Promise<void> {
    for (const { channelId, callId } of await this.calls.takeExpired(Date.now())) {
      const call = await this.calls.load(channelId);
      if (call?.id !== callId) continue;
      await this.end(call, call.state === 'ringing' ? 'timeout' : 'disconnected', null, true);
    }
  }

  /** Active calls with a socket here stay alive (the lease is renewed only while it is still held: zadd after an end is harmless). */
  async renew(): Promise<void> {
    for (const socket of this.io.of('/').sockets.values()) {
      const held = (socket.data as Data).call;
      if (!held?.active) continue;
      await this.calls.lease(held.channelId, held.callId, Date.now() + ACTIVE_LEASE_MS);
    }
  }
}
