/** The presence keys of the ephemeral store and what a connection's registration holds (presence-service.ts: layout). */
import type { OnlineUser } from '@ephemera/proto';

/** A connection lives this long after its last refresh (connect, heartbeat); every key's TTL. */
export const CONNECTION_TTL_MS = 60_000;

// Room and user ids hold no ':' (base62, newId), so one room's keys cannot be mistaken for another's.
export const connsKey = (workspaceId: string, userId: string) => `presence:conns:${workspaceId}:${userId}`;
export const usersKey = (workspaceId: string) => `presence:users:${workspaceId}`;
export const idsKey = (workspaceId: string) => `presence:ids:${workspaceId}`;
export const statusKey = (workspaceId: string) => `presence:status:${workspaceId}`;
export const connKey = (connectionId: string) => `presence:connection:${connectionId}`;

/** What presence:connection:{id} holds. */
export interface Registration {
  workspaceId: string;
  user: OnlineUser;
}

/** A connection's registration, or null when absent or written by the earlier layout ({workspaceId, member}). */
export function parseRegistration(raw: string | null): Registration | null {
  if (!raw) return null;
  const parsed = JSON.parse(raw) as Partial<Registration>;
  return parsed.workspaceId && parsed.user ? (parsed as Registration) : null;
}
