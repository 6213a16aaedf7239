/**
 * A process's view of room keys: fetched once from the owner (the room service's key store; in distributed mode
 * over its internal route) and kept in memory, forgotten when the room is deleted or expires. A destroyed key
 * answers null: the caller treats the room's content as gone.
 */
import type { RoomKey } from './room-key.ts';

export type RoomKeySource = (workspaceId: string) => Promise<RoomKey | null>;

export class RoomKeyring {
  private readonly cache = new Map<string, RoomKey>();
  private readonly pending = new Map<string, Promise<RoomKey | null>>();
  /** rooms whose key is known to be destroyed (bounded; a miss only costs one lookup) */
  private readonly gone = new Set<string>();

  constructor(
    private readonly source: RoomKeySource,
    private readonly maxCached = 50_000,
  ) {}

  /** the room's key, or null when the room has none any more */
  async key(workspaceId: string): Promise<RoomKey | null> {
    const hit = this.cache.get(workspaceId);
    if (hit) return hit;
    if (this.gone.has(workspaceId)) return null;
    let p = this.pending.get(workspaceId);
    if (!p) {
      p = this.source(workspaceId).finally(() => this.pending.delete(workspaceId));
      this.pending.set(workspaceId, p);
    }
    const key = await p;
    if (this.gone.has(workspaceId)) return null; // forgotten while the lookup was in flight
    if (key) {
      if (this.cache.size >= this.maxCached) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(workspaceId, key);
    } else {
      // A room's key is created before its first event, so "no key" is final: the room was deleted or expired.
      // Remembering it spares a replay of a deleted room one lookup per record.
      this.markGone(workspaceId);
    }
    return key;
  }

  /**
   * Asks the key's owner again, past the cache: something about to outlast the request (an upload being stored)
   * must not trust a key cached before the room was deleted, since this process hears of the deletion only when
   * its event arrives (distributed: through Kafka, later under load). False, and forgotten here, when it is gone.
   */
  async confirm(workspaceId: string): Promise<boolean> {
    if (this.gone.has(workspaceId)) return false;
    if (await this.source(workspaceId)) return true;
    this.forget(workspaceId);
    return false;
  }

  /** true when the room's key is known to be destroyed (its content is gone) */
  isGone(workspaceId: string): boolean {
    return this.gone.has(workspaceId);
  }

  /** the cached key only (hot paths that must not wait); null when not cached */
  cached(workspaceId: string): RoomKey | null {
    return this.cache.get(workspaceId) ?? null;
  }

  /** the room was deleted or expired: drop the key from memory */
  forget(workspaceId: string): void {
    this.cache.delete(workspaceId);
    this.markGone(workspaceId);
  }

  private markGone(workspaceId: string): void {
    if (this.gone.size > 100_000) this.gone.clear();
    this.gone.add(workspaceId);
  }
}
