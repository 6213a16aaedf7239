/**
 * Calls as the ephemeral store holds them (docs/calls.md), so that any gateway replica can act on one. Keys:
 * call:{channelId} (the call), call:busy:{userId} (claimed atomically with incrWithTtl: the first claimer gets 1),
 * call:of:{userId} (the user's call's channel), call:answered:{callId} (one accept wins), and the sorted set
 * call:leases of "{channelId}|{callId}" scored by deadline. Whoever removes a call's lease ends it (zrem answers 1 to
 * one caller only; ztakeBelow gives an expired one to one replica), so an end is announced once. The commands and
 * their messages are calls.ts's.
 */
import type { CallType } from '@ephemera/proto';
import type { EphemeralStore } from '@ephemera/platform';

export interface CallState {
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

/** An active call's lease, renewed by the replicas holding its sockets, so a call whose replicas all vanished ends. */
export const ACTIVE_LEASE_MS = 60_000;
/** a call's keys outlive any call; the lease, not the key's expiry, ends calls */
const KEY_TTL_MS = 12 * 60 * 60 * 1000;
const leasesKey = (namespace?: string) => (namespace ? `${namespace}:call:leases` : 'call:leases');
const callKey = (channelId: string) => `call:${channelId}`;
const busyKey = (userId: string) => `call:busy:${userId}`;
const ofKey = (userId: string) => `call:of:${userId}`;
const leaseMember = (channelId: string, callId: string) => `${channelId}|${callId}`;

export class CallStore {
  /** the sorted set of call deadlines (ringing: the ring timeout; active: renewed while a replica holds a party) */
  private readonly leases: string;

  /** namespace: EVENT_LOG_NAMESPACE, so deployments sharing one Redis each sweep only their own leases */
  constructor(
    private readonly store: EphemeralStore,
    namespace?: string,
  ) {
    this.leases = leasesKey(namespace);
  }

  /** True for the first claimer: the user is in no other call. */
  async claimBusy(userId: string): Promise<boolean> {
    return (await this.store.incrWithTtl(busyKey(userId), KEY_TTL_MS)) === 1;
  }

  async freeBusy(userId: string): Promise<void> {
    await this.store.del(busyKey(userId));
  }

  /** A new ringing call: its state, each party's call, and its lease until `deadline`. */
  async ring(call: CallState, deadline: number): Promise<void> {
    await Promise.all([
      this.save(call),
      this.store.set(ofKey(call.callerId), call.channelId, KEY_TTL_MS),
      this.store.set(ofKey(call.calleeId), call.channelId, KEY_TTL_MS),
    ]);
    await this.lease(call.channelId, call.id, deadline);
  }

  async save(call: CallState): Promise<void> {
    await this.store.set(callKey(call.channelId), JSON.stringify(call), KEY_TTL_MS);
  }

  async load(channelId: string): Promise<CallState | null> {
    const raw = await this.store.get(callKey(channelId));
    return raw ? (JSON.parse(raw) as CallState) : null;
  }

  /** The channel of the user's call, if any. */
  channelOf(userId: string): Promise<string | null> {
    return this.store.get(ofKey(userId));
  }

  /** True for exactly one accept of a call. */
  async claimAnswer(callId: string): Promise<boolean> {
    return (await this.store.incrWithTtl(`call:answered:${callId}`, KEY_TTL_MS)) === 1;
  }

  /** Take the call's lease: true for exactly one taker (an ender, or the accept that turns ringing into active). */
  async takeLease(call: CallState): Promise<boolean> {
    return (await this.store.zrem(this.leases, leaseMember(call.channelId, call.id))) === 1;
  }

  /** The call's lease until `deadline` (zadd after an end is harmless: the sweep finds no call under it). */
  async lease(channelId: string, callId: string, deadline: number): Promise<void> {
    await this.store.zadd(this.leases, deadline, leaseMember(channelId, callId));
  }

  /** The leases past their deadline, each taken by this caller only. */
  async takeExpired(now: number): Promise<{ channelId: string; callId: string }[]> {
    return (await this.store.ztakeBelow(this.leases, now)).map(({ member }) => {
      const [channelId, callId] = member.split('|');
      return { channelId: channelId!, callId: callId! };
    });
  }

  /** Only this call's keys: a newer call of the same DM (or of either user) keeps its own. */
  async release(call: CallState): Promise<void> {
    const current = await this.load(call.channelId);
    if (current?.id === call.id) await this.store.del(callKey(call.channelId));
    for (const userId of [call.callerId, call.calleeId]) {
      if ((await this.store.get(ofKey(userId))) === call.channelId) await this.store.del(ofKey(userId));
      await this.freeBusy(userId);
    }
  }
}
