/**
 * Presence: who is online in a room, kept in the ephemeral store (Redis when distributed, memory when embedded),
 * never in the durable log. A user is online while any of their connections is live; connections expire
 * CONNECTION_TTL_MS after their last refresh, and the gateway refreshes its own with heartbeats, so a crashed
 * replica's connections drop out by themselves. Changes are published on PRESENCE_CHANNEL, one user per signal;
 * every gateway fans them out.
 *
 * Layout, sized so that no call reads more than the room's users (a room has few users but may have many
 * connections: tabs, devices; one sorted set of every connection made each join read them all, O(n^2) per room).
 * Every key has a TTL of CONNECTION_TTL_MS, set anew by each write that refreshes a connection of it (connect,
 * heartbeat; setStatus for the statuses), so it expires with the last connection it counts: a crashed replica's
 * entries are dropped when someone touches the room again, and otherwise go by themselves.
 *   presence:conns:{room}:{user}  sorted set: the user's connection ids scored by expiry. First and last
 *                                 connection = how many are live (ZCOUNT) before a connect / after a disconnect.
 *   presence:users:{room}         hash: user id -> OnlineUser JSON, the index of users who may be online. The
 *                                 list checks each against their connections, so an entry left by a crashed
 *                                 replica is never listed and is dropped there.
 *   presence:ids:{room}           sorted set, every score 0: the index's user ids in byte order, for the online list's
 *                                 pages (ZRANGEBYLEX) and its count (ZCARD) without reading the whole index. Written
 *                                 and removed with each index entry; a room indexed before it existed gets its ids
 *                                 from the next heartbeat, which writes every live user's entry again.
 *   presence:status:{room}        hash: user id -> status ('online' is the absence of a field).
 *   presence:connection:{id}      string: the connection's room and user, expiring with it (for disconnect and
 *                                 heartbeat, which get only the connection id); a heartbeat renews its TTL alone.
 * Earlier layouts (one sorted set per room, presence:room:*; registrations under presence:conn:*, rewritten by
 * each heartbeat) need no migration: presence is ephemeral. Their keys are no longer read, and a connection they
 * registered reads as missing in the next heartbeat, so the gateway connects it again.
 *
 * Several calls issued together share one round trip and the store runs them in the order issued (ioredis writes
 * them back to back on one connection; the memory store runs each to completion when called). Connect relies on
 * that order (connection before index entry, see dropIfGone) instead of a transaction.
 *
 * Status (online / away / busy) belongs to the user in a room, not to a connection, so every connection of the
 * user shows it and a new tab keeps it. It is cleared when the user's last connection goes, so someone who comes
 * back later is online again. Typing indicators: typing.ts; the keys: presence-keys.ts; the online list's reads:
 * online-list.ts.
 */
import {
  BIG_ROOM,
  PRESENCE_CHANNEL,
  type OnlinePage,
  type OnlineUser,
  type PresenceApi,
  type PresenceSignal,
  type PresenceStatus,
} from '@ephemera/proto';
import type { EphemeralStore } from '@ephemera/platform';
import { TypingIndicators, type TypingInput } from './typing.ts';
import {
  CONNECTION_TTL_MS,
  connKey,
  connsKey,
  idsKey,
  parseRegistration,
  statusKey,
  usersKey,
  type Registration,
} from './presence-keys.ts';
import { dropIfGone, listLive, pageLive } from './online-list.ts';

export { CONNECTION_TTL_MS };
/** How often expired typing indicators are looked for: a vanished typer stops within typingExpireMs + this. */
export const TYPING_SWEEP_MS = 1_000;
/** connections a heartbeat refreshes at once */
const HEARTBEAT_CONCURRENCY = 256;

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

  constructor(
    private readonly store: EphemeralStore,
    options: PresenceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.typingIndicators = new TypingIndicators(store, (s) => this.signal(s), this.now);
    const every = options.typingSweepMs ?? TYPING_SWEEP_MS;
    if (every > 0) {
      let running = false; // a slow store must not pile sweeps up
      this.sweeper = setInterval(() => {
        if (running) return;
        running = true;
        this.sweepTyping()
          .catch((err) => options.onError?.(err))
          .finally(() => {
            running = false;
          });
      }, every);
      this.sweeper.unref();
    }
  }

  /** Stop the typing sweeper (the store is the caller's to close). */
  stop(): void {
    clearInterval(this.sweeper);
  }

  async connect(input: Parameters<PresenceApi['connect']>[0]) {
    const { workspaceId, user } = input;
    const now = this.now();
    const conns = connsKey(workspaceId, user.id);
    const [, before] = await Promise.all([this.store.zremRangeByScoreBelow(conns, now), this.store.zcount(conns, now)]);
    const firstConnection = before === 0;
    const registration: Registration = { workspaceId, user };
    // In this order: a first connection starts online (a status left by a crashed replica's connections is dropped)
    // before it counts, while a further connection keeps the status the user set; the connection is written before
    // its index entry (see dropIfGone), each key's TTL after the write that may have created it; the list is read
    // after all of them.
    const written = Promise.all([
      firstConnection ? this.store.hdel(statusKey(workspaceId), user.id) : undefined,
      this.store.zadd(conns, now + CONNECTION_TTL_MS, input.connectionId),
      this.store.expire(conns, CONNECTION_TTL_MS),
      this.store.hset(usersKey(workspaceId), user.id, JSON.stringify(user)),
      this.store.zadd(idsKey(workspaceId), 0, user.id),
      this.expireRoom(workspaceId),
      this.store.set(connKey(input.connectionId), JSON.stringify(registration), CONNECTION_TTL_MS),
      firstConnection ? this.signal({ kind: 'joined', workspaceId, user }) : undefined,
    ]);
    await written;
    const page = await pageLive(this.store, workspaceId, null, input.firstPage ?? BIG_ROOM.onlinePageSize, now);
    return { firstConnection, online: page.users, onlineCount: page.onlineCount, next: page.next };
  }

  async setStatus(input: { workspaceId: string; userId: string; status: PresenceStatus }): Promise<void> {
    const key = statusKey(input.workspaceId);
    if (input.status === 'online') await this.store.hdel(key, input.userId);
    else
      await Promise.all([this.store.hset(key, input.userId, input.status), this.store.expire(key, CONNECTION_TTL_MS)]);
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
    const registration = parseRegistration(await this.store.get(connKey(input.connectionId)));
    if (!registration) return { lastConnection: false };
    const { workspaceId, user } = registration;
    const now = this.now();
    const conns = connsKey(workspaceId, user.id);
    const [, , , rest] = await Promise.all([
      this.store.zrem(conns, input.connectionId),
      this.store.del(connKey(input.connectionId)),
      this.store.zremRangeByScoreBelow(conns, now),
      this.store.zcount(conns, now),
    ]);
    // The user's other connections may all have expired (a crashed replica's): then this one was the last too.
    if (rest > 0 || !(await dropIfGone(this.store, workspaceId, user.id, JSON.stringify(user), now)))
      return { lastConnection: false };
    await Promise.all([
      this.store.hdel(statusKey(workspaceId), user.id),
      this.signal({ kind: 'left', workspaceId, userId: user.id, username: user.username }),
    ]);
    return { lastConnection: true };
  }

  async online(workspaceId: string): Promise<OnlineUser[]> {
    const [index, statuses] = await Promise.all([
      this.store.hgetall(usersKey(workspaceId)),
      this.store.hgetall(statusKey(workspaceId)),
    ]);
    return listLive(this.store, workspaceId, index, statuses, this.now());
  }

  onlinePage(input: { workspaceId: string; after: string | null; limit: number }): Promise<OnlinePage> {
    return pageLive(this.store, input.workspaceId, input.after, input.limit, this.now());
  }

  async heartbeat(input: {
    gatewayId: string;
    connections: { workspaceId: string; userId: string; connectionId: string }[];
  }) {
    const expiry = this.now() + CONNECTION_TTL_MS;
    const missing: string[] = [];
    // First every connection's registration gets its TTL anew (its value stays: no read, no rewrite); a missing one
    // (lost with the store, or expired) is connected again by the gateway. Then the live ones' expiry in their
    // user's set, and once per user and beat the index entry, written again after the connection as connect does
    // (a user whose connections had all expired, a beat that came late, and were dropped from the index is listed
    // again): that needs the user as registered, one read per user, not per connection. With the index entries the
    // TTLs of the keys they refreshed: each user's connections, and once per room its index and statuses.
    const live: { workspaceId: string; userId: string; connectionId: string }[] = [];
    await this.inBatches(input.connections, async (c) => {
      if (await this.store.expire(connKey(c.connectionId), CONNECTION_TTL_MS)) live.push(c);
      else missing.push(c.connectionId);
    });
    const usersOfRoom = new Map<string, Map<string, string>>(); // room -> user -> their first connection
    for (const c of live) {
      let users = usersOfRoom.get(c.workspaceId);
      if (!users) usersOfRoom.set(c.workspaceId, (users = new Map()));
      if (!users.has(c.userId)) users.set(c.userId, c.connectionId);
    }
    // In room order, so that the room's keys get their TTL once, with its last user (in the last batch holding it).
    const users = [...usersOfRoom].flatMap(([workspaceId, ofRoom]) =>
      [...ofRoom].map(([userId, connectionId], i) => ({
        workspaceId,
        userId,
        connectionId,
        lastOfRoom: i === ofRoom.size - 1,
      })),
    );
    await this.inBatches(live, (c) => this.store.zadd(connsKey(c.workspaceId, c.userId), expiry, c.connectionId));
    for (const batch of batches(users)) {
      const registrations = await Promise.all(batch.map((u) => this.store.get(connKey(u.connectionId))));
      await Promise.all(
        batch.flatMap((u, i) => {
          const registration = parseRegistration(registrations[i]);
          return [
            registration
              ? this.store.hset(
                  usersKey(registration.workspaceId),
                  registration.user.id,
                  JSON.stringify(registration.user),
                )
              : Promise.resolve(0),
            registration
              ? this.store.zadd(idsKey(registration.workspaceId), 0, registration.user.id)
              : Promise.resolve(),
            this.store.expire(connsKey(u.workspaceId, u.userId), CONNECTION_TTL_MS),
            u.lastOfRoom ? this.expireRoom(u.workspaceId) : Promise.resolve(),
          ];
        }),
      );
    }
    return { missing };
  }

  /**
   * The TTL of a room's index and statuses, issued after the writes that may have created them (a TTL asked for a
   * missing key is lost), as each user's connections get theirs after the connection's zadd. So every key expires
   * by itself once nothing refreshed it for CONNECTION_TTL_MS, even in a room nobody lists or joins again.
   */
  private expireRoom(workspaceId: string): Promise<unknown> {
    return Promise.all([
      this.store.expire(usersKey(workspaceId), CONNECTION_TTL_MS),
      this.store.expire(idsKey(workspaceId), CONNECTION_TTL_MS),
      this.store.expire(statusKey(workspaceId), CONNECTION_TTL_MS),
    ]);
  }

  /**
   * Many commands in flight at once share the store's round trips (ioredis writes them back to back): one at a
   * time, a replica's heartbeat of 500 connections was 1,500 round trips, the largest idle cost of this service.
   */
  private async inBatches<T>(items: T[], run: (item: T) => Promise<unknown>): Promise<void> {
    for (const batch of batches(items)) await Promise.all(batch.map(run));
  }

  private signal(signal: PresenceSignal): Promise<void> {
    return this.store.publish(PRESENCE_CHANNEL, JSON.stringify(signal));
  }
}

/** The items in slices of HEARTBEAT_CONCURRENCY, to run each slice's commands at once. */
function batches<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += HEARTBEAT_CONCURRENCY) out.push(items.slice(i, i + HEARTBEAT_CONCURRENCY));
  return out;
}
