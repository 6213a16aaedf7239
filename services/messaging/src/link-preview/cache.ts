/**
 * The preview cache: lru-cache (bounded LRU with per-entry TTL) keyed by the normalized address. Answers are kept
 * `ttlMs`, failures (blocked, unreachable, not HTML) `failureTtlMs`, so a burst of requests for a bad link costs
 * one fetch. Concurrent requests for one address share one fetch. Per process: every messaging instance has its
 * own (a miss costs one fetch of a public page).
 */
import { LRUCache } from 'lru-cache';
import { DomainError, type LinkPreview } from '@ephemera/proto';

export interface CacheOptions {
  /** entries kept at most (default 5000) */
  max?: number;
  /** how long an answer is reused (default 30 min) */
  ttlMs?: number;
  /** how long a failure is reused (default 60 s) */
  failureTtlMs?: number;
}

type Entry = { ok: true; preview: LinkPreview } | { ok: false; error: DomainError };

export class PreviewCache {
  private readonly lru: LRUCache<string, Entry>;
  private readonly inFlight = new Map<string, Promise<LinkPreview>>();
  private readonly failureTtlMs: number;

  constructor(opts: CacheOptions = {}) {
    this.lru = new LRUCache<string, Entry>({ max: opts.max ?? 5000, ttl: opts.ttlMs ?? 30 * 60_000 });
    this.failureTtlMs = opts.failureTtlMs ?? 60_000;
  }

  /** The cached answer (or failure, rethrown) for `key`, else `load()` once for every concurrent caller. */
  get(key: string, load: () => Promise<LinkPreview>): Promise<LinkPreview> {
    const hit = this.lru.get(key);
    if (hit) return hit.ok ? Promise.resolve(hit.preview) : Promise.reject(hit.error);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const p = load()
      .then(
        (preview) => {
          this.lru.set(key, { ok: true, preview });
          return preview;
        },
        (error: unknown) => {
          // Only our own verdicts on the link are cached; anything unexpected is retried next time.
          if (error instanceof DomainError) this.lru.set(key, { ok: false, error }, { ttl: this.failureTtlMs });
          throw error;
        },
      )
      .finally(() => {
        this.inFlight.delete(key);
      });
    this.inFlight.set(key, p);
    return p;
  }

  /** The cached answer for `key`, without fetching (a message carries only a preview the server already made). */
  peek(key: string): LinkPreview | null {
    const hit = this.lru.get(key);
    return hit?.ok ? hit.preview : null;
  }

  get size(): number {
    return this.lru.size;
  }
  clear(): void {
    this.lru.clear();
  }
}
