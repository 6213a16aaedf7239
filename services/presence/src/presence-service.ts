/**
 * Presence: who is online in a room, kept in the ephemeral store (Redis when distributed, memory when embedded),
 * never in the durable log. Each live connection is a member of a sorted set per room scored by its expiry; the
 * gateway refreshes its connections with heartbeats, so a crashed replica's connections drop out by themselves.
 * A user is online while any of their connections is. Changes are published on PRESENCE_CHANNEL, one user per
 * signal; every gateway fans them out.
 */
import { PRESENCE_CHANNEL, type OnlineUser, type PresenceApi, type PresenceSignal } from '@ephemera/proto';
import type { EphemeralStore } from '@ephemera/platform';

export const CONNECTION_TTL_MS = 60_000;

const roomKey = (workspaceId: string) => `presence:room:${workspaceId}`;
const connKey = (connectionId: string) => `presence:conn:${connectionId}`;

interface Entry { c: string; u: OnlineUser }

export class PresenceService implements PresenceApi {
  constructor(private readonly store: EphemeralStore, private readonly now: () => number = Date.now) {}

  async connect(input: { workspaceId: string; user: OnlineUser; connectionId: string; gatewayId: string }) {
    const before = await this.live(input.workspaceId);
    const member = JSON.stringify({ c: input.connectionId, u: input.user } satisfies Entry);
    await this.store.zadd(roomKey(input.workspaceId), this.now() + CONNECTION_TTL_MS, member);
    await this.store.set(connKey(input.connectionId), JSON.stringify({ workspaceId: input.workspaceId, member }), CONNECTION_TTL_MS);
    const firstConnection = !before.some((e) => e.u.id === input.user.id);
    if (firstConnection) await this.signal({ kind: 'joined', workspaceId: input.workspaceId, user: input.user });
    const online = uniqueUsers([...before, { c: input.connectionId, u: input.user }]);
    return { firstConnection, online };
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
      await this.signal({ kind: 'left', workspaceId, userId: u.id, username: u.username });
    }
    return { lastConnection };
  }

  async online(workspaceId: string): Promise<OnlineUser[]> {
    return uniqueUsers(await this.live(workspaceId));
  }

  async heartbeat(input: { gatewayId: string; connections: { workspaceId: string; userId: string; connectionId: string }[] }) {
    const expiry = this.now() + CONNECTION_TTL_MS;
    for (const c of input.connections) {
      const raw = await this.store.get(connKey(c.connectionId));
      if (!raw) continue;
      const { workspaceId, member } = JSON.parse(raw) as { workspaceId: string; member: string };
      await this.store.zadd(roomKey(workspaceId), expiry, member);
      await this.store.set(connKey(c.connectionId), raw, CONNECTION_TTL_MS);
    }
  }

  private async live(workspaceId: string): Promise<Entry[]> {
    const now = this.now();
    await this.store.zremRangeByScoreBelow(roomKey(workspaceId), now);
    const members = await this.store.zrangeByScore(roomKey(workspaceId), now);
    return members.map((m) => JSON.parse(m.member) as Entry);
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
