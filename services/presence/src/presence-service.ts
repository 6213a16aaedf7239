/**
 * Presence: who is online in a room, kept in the ephemeral store (Redis when distributed, memory when embedded),
 * never in the durable log. Each live connection is a member of a sorted set per room scored by its expiry; the
 * gateway refreshes its connections with heartbeats, so a crashed replica's connections drop out by themselves.
 * A user is online while any of their connections is. Changes are published on PRESENCE_CHANNEL, one user per
 * signal; every gateway fans them out.
 *
 * Status (online / away / busy) belongs to the user in a room, not to a connection: it lives in one hash per room
 * (user id -> status, 'online' is the absence of a field), so every connection of the user shows it, a new tab
 * keeps it, and the online list is read with one call. It is cleared when the user's last connection goes, so
 * someone who comes back later is online again. Typing indicators: typing.ts.
 */
import { PRESENCE_CHANNEL, type OnlineUser, type PresenceApi, type PresenceSignal, type PresenceStatus } from '@ephemera/proto';
import type { EphemeralStore } from '@ephemera/platform';
import { TypingIndicators, type TypingInput } from './typing.ts';

export const CONNECTION_TTL_MS = 60_000;
/** How often expired typing indicators are looked for: a vanished typer stops within typingExpireMs + this. */
export const TYPING_SWEEP_MS = 1_000;
/** connections a heartbeat refreshes at once */
const HEARTBEAT_CONCURRENCY = 256;

const roomKey = (workspaceId: string) => `presence:room:${workspaceId}`;
const connKey = (connectionId: string) => `presence:conn:${connectionId}`;
const statusKey = (workspaceId: string) => `presence:status:${workspaceId}`;

interface Entry { c: string; u: OnlineUser }

export interface PresenceOptions {
  now?: () => number;
  /** 0 disables the periodic sweep (tests call sweepTyping() themselves) */
  typingSweepMs?: number;
  onError?: (err: unknown) => void;
}

export class PresenceService implements PresenceApi {
  private readonly now: () => number;
  private readonly typingIndicators: TypingIndicators;
  private readonly sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly store: EphemeralStore, options: PresenceOptions = {}) {
    this.now = options.now ?? Date.now;
    this.typingIndicators = new TypingIndicators(store, (s) => this.signal(s), this.now);
    const every = options.typingSweepMs ?? TYPING_SWEEP_MS;
    if (every > 0) {
      let running = false; // a slow store must not pile sweeps up
      this.sweeper = setInterval(() => {
        if (running) return;
        running = true;
        this.sweepTyping().catch((err) => options.onError?.(err)).finally(() => { running = false; });
      }, every);
      this.sweeper.unref();
    }
  }

  /** Stop the typing sweeper (the store is the caller's to close). */
  stop(): void {
    clearInterval(this.sweeper);
  }

  async connect(input: { workspaceId: string; user: OnlineUser; connectionId: string; gatewayId: string }) {
    const before = await this.live(input.workspaceId);
    const firstConnection = !before.some((e) => e.u.id === input.user.id);
    // A first connection starts online (a status left by a crashed replica's connections is dropped); a further
    // connection of a user who is online keeps the status they set.
    if (firstConnection) await this.store.hdel(statusKey(input.workspaceId), input.user.id);
    const member = JSON.stringify({ c: input.connectionId, u: input.user } satisfies Entry);
    await this.store.zadd(roomKey(input.workspaceId), this.now() + CONNECTION_TTL_MS, member);
    await this.store.set(connKey(input.connectionId), JSON.stringify({ workspaceId: input.workspaceId, member }), CONNECTION_TTL_MS);
    if (firstConnection) await this.signal({ kind: 'joined', workspaceId: input.workspaceId, user: input.user });
    const online = await this.withStatus(input.workspaceId, uniqueUsers([...before, { c: input.connectionId, u: input.user }]));
    return { firstConnection, online };
  }

  async setStatus(input: { workspaceId: string; userId: string; status: PresenceStatus }): Promise<void> {
    if (input.status === 'online') await this.store.hdel(statusKey(input.workspaceId), input.userId);
    else await this.store.hset(statusKey(input.workspaceId), input.userId, input.status);
    await this.signal({ kind: 'status', workspaceId: input.workspaceId, userId: input.userId, status: input.status });
  }

  typing(input: TypingInput): Promise<void> {
    return this.typingIndicators.update(input);
  }

  /** Announce the stop of typing indicators nobody refreshed or stopped (their gateway went away). */
  sweepTyping(): Promise<number> {
    return this.typingIndicators.sweep();
  }

  async disconnect(input: { workspaceId: string; userId: string; connectionId: string }) {
    const raw = await this.store.get(connKey(input.connectionId));
    if (!raw) return { lastConnection: false };
    const { workspaceId, member } = JSON.parse(raw) as { workspaceId: string; member: string };
    await this.store.zrem(roomKey(workspaceId), member);
    await this.store.del(connKey(input.connectionId));
    const rest = await this.live(workspaceId);
    const lastConnection = !rest.some((e) => e.u.id === input.userId);
    if (lastConnection) {
      const { u } = JSON.parse(member) as Entry;
      await this.store.hdel(statusKey(workspaceId), u.id);
      await this.signal({ kind: 'left', workspaceId, userId: u.id, username: u.username });
    }
    return { lastConnection };
  }

  async online(workspaceId: string): Promise<OnlineUser[]> {
    return this.withStatus(workspaceId, uniqueUsers(await this.live(workspaceId)));
  }

  async heartbeat(input: { gatewayId: string; connections: { workspaceId: string; userId: string; connectionId: string }[] }) {
    const expiry = this.now() + CONNECTION_TTL_MS;
    const missing: string[] = [];
    const refresh = async (c: { connectionId: string }) => {
      const raw = await this.store.get(connKey(c.connectionId));
      if (!raw) { missing.push(c.connectionId); return; } // lost with the store (or expired): the gateway reconnects it
      const { workspaceId, member } = JSON.parse(raw) as { workspaceId: string; member: string };
      await this.store.zadd(roomKey(workspaceId), expiry, member);
      await this.store.set(connKey(c.connectionId), raw, CONNECTION_TTL_MS);
    };
    // Many commands in flight at once share the store's round trips (ioredis writes them back to back): one at a
    // time, a replica's heartbeat of 500 connections was 1,500 round trips, the largest idle cost of this service.
    for (let i = 0; i < input.connections.length; i += HEARTBEAT_CONCURRENCY) {
      await Promise.all(input.connections.slice(i, i + HEARTBEAT_CONCURRENCY).map(refresh));
    }
    return { missing };
  }

  private async live(workspaceId: string): Promise<Entry[]> {
    const now = this.now();
    await this.store.zremRangeByScoreBelow(roomKey(workspaceId), now);
    const members = await this.store.zrangeByScore(roomKey(workspaceId), now);
    return members.map((m) => JSON.parse(m.member) as Entry);
  }

  /** The users with the status each set (entries carry the status of their connect time). */
  private async withStatus(workspaceId: string, users: OnlineUser[]): Promise<OnlineUser[]> {
    const statuses = await this.store.hgetall(statusKey(workspaceId));
    return users.map((u) => {
      const status = (statuses[u.id] as PresenceStatus | undefined) ?? 'online';
      return status === u.presenceStatus ? u : { ...u, presenceStatus: status };
    });
  }

  private signal(signal: PresenceSignal): Promise<void> {
    return this.store.publish(PRESENCE_CHANNEL, JSON.stringify(signal));
  }
}

function uniqueUsers(entries: Entry[]): OnlineUser[] {
  const byId = new Map<string, OnlineUser>();
  for (const e of entries) byId.set(e.u.id, e.u);
  return [...byId.values()];
}
