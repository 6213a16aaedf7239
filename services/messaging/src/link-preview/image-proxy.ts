/**
 * Preview images through our origin (docs/product/security.md S15; docs/link-previews.md "Images"):
 * `GET /api/link-preview/image?u={absolute image address}&s={signature}`.
 *
 * - **Signed addresses only** (no open proxy): `s` is HMAC-SHA256 over `u` with a key derived (HKDF, info
 *   'ephemera link-preview image v1') from the master key the messaging module already has, so only image
 *   addresses that our own preview answers contain can be fetched. An <img> sends no Authorization header: the
 *   signature is the authorization (proto/src/authz.ts `linkPreviewImage`). Checked before anything else, in
 *   constant time; a missing, malformed or mismatched signature is a 403 and nothing is fetched.
 * - **Fetched by the SafeFetcher** (`fetchImage`): every SSRF rule of the preview (connect-time address check on
 *   every hop, redirects limited and re-checked, one deadline), only `image/*` answers (never SVG), at most
 *   `maxBytes` (5 MB), refused past it.
 * - **Served type decided from the bytes** (file-type's magic numbers): JPEG, PNG, GIF and WebP only; anything
 *   else (SVG, HTML or a script labelled image/png, an unknown format) is refused. The route answers with that type,
 *   `nosniff`, a `default-src 'none'; sandbox` CSP and `Content-Disposition: inline`.
 * - **Cached** in a bounded LRU (by total bytes, 64 MB by default), failures briefly; concurrent requests for one
 *   image share one fetch. Only fetches (cache misses) take a point of the per-address rate limit.
 */
import { fileTypeFromBuffer } from 'file-type';
import { LRUCache } from 'lru-cache';
import { DomainError, SERVICE_TEXTS } from '@ephemera/proto';
import { ImageSigner } from '@ephemera/platform';
import { DEFAULTS, type SafeFetcher } from './fetcher.ts';
import { IMAGE_NOT_AN_IMAGE } from './fetch-texts.ts';

// The signer lives in platform (crypto/image-signer.ts): the room service signs the custom theme's logo with it too.
export { ImageSigner };

/** The formats served, by the type file-type reads from the bytes. No SVG: it is a document that can run script. */
export const SERVED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export type ServedImageType = (typeof SERVED_IMAGE_TYPES)[number];
const SERVED = new Set<string>(SERVED_IMAGE_TYPES);

export const NOT_SIGNED = 'This image address was not issued by this server';
export const UNSUPPORTED_IMAGE = 'Only JPEG, PNG, GIF and WebP images are served';

/** The headers every served image carries (the route sets them; tests check them). */
export const IMAGE_RESPONSE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'Content-Disposition': 'inline',
  // The address is signed and names one image: a browser may keep it; a proxy may too (nothing personal in it).
  'Cache-Control': 'public, max-age=86400, immutable',
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const;

export interface ImageProxyOptions {
  /** bytes of one image at most (default 5 MB); a longer one is refused */
  maxBytes?: number;
  /** bytes of images cached at most (default 64 MB) */
  cacheBytes?: number;
  /** how long an image is reused (default 24 h) */
  ttlMs?: number;
  /** how long a failure is reused (default 60 s) */
  failureTtlMs?: number;
}

export interface ProxiedImage {
  body: Buffer;
  type: ServedImageType;
}

type Entry = { ok: true; image: ProxiedImage } | { ok: false; error: DomainError };
const FAILURE_SIZE = 256;

export class ImageProxy {
  private readonly lru: LRUCache<string, Entry>;
  private readonly inFlight = new Map<string, Promise<ProxiedImage>>();
  private readonly maxBytes: number;
  private readonly failureTtlMs: number;

  constructor(
    private readonly fetcher: SafeFetcher,
    readonly signer: ImageSigner,
    opts: ImageProxyOptions = {},
  ) {
    this.maxBytes = opts.maxBytes ?? DEFAULTS.maxImageBytes;
    this.failureTtlMs = opts.failureTtlMs ?? 60_000;
    this.lru = new LRUCache<string, Entry>({
      maxSize: opts.cacheBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (e) => (e.ok ? Math.max(1, e.image.body.length) : FAILURE_SIZE),
      ttl: opts.ttlMs ?? 24 * 60 * 60_000,
    });
  }

  /** The same-origin path for an image address of a preview. */
  path(url: string): string {
    return this.signer.path(url);
  }

  /**
   * The image named by `u` if `s` is its signature. `beforeFetch` runs only when the image must be fetched (the
   * rate limit: cache hits cost nothing). DomainError FORBIDDEN (not signed), VALIDATION, RATE_LIMITED,
   * LINK_PREVIEW_BLOCKED or LINK_PREVIEW_FAILED otherwise.
   */
  async serve(u: unknown, s: unknown, beforeFetch: () => Promise<void> = async () => {}): Promise<ProxiedImage> {
    if (typeof u !== 'string' || typeof s !== 'string' || !this.signer.verify(u, s))
      throw new DomainError('FORBIDDEN', NOT_SIGNED);
    const hit = this.lru.get(u);
    if (hit) {
      if (hit.ok) return hit.image;
      throw hit.error;
    }
    const pending = this.inFlight.get(u);
    if (pending) return pending;
    await beforeFetch();
    const started = this.inFlight.get(u); // another request may have started it while the limit was asked
    if (started) return started;
    const p = this.load(u)
      .then(
        (image) => {
          this.lru.set(u, { ok: true, image });
          return image;
        },
        (error: unknown) => {
          if (error instanceof DomainError) this.lru.set(u, { ok: false, error }, { ttl: this.failureTtlMs });
          throw error;
        },
      )
      .finally(() => {
        this.inFlight.delete(u);
      });
    this.inFlight.set(u, p);
    return p;
  }

  private async load(u: string): Promise<ProxiedImage> {
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      throw new DomainError('VALIDATION', SERVICE_TEXTS.notImageAddress);
    }
    const fetched = await this.fetcher.fetchImage(url, this.maxBytes);
    if (fetched.body.length === 0) throw new DomainError('LINK_PREVIEW_FAILED', IMAGE_NOT_AN_IMAGE);
    const detected = await fileTypeFromBuffer(fetched.body).catch(() => undefined);
    if (!detected || !SERVED.has(detected.mime)) throw new DomainError('LINK_PREVIEW_FAILED', UNSUPPORTED_IMAGE);
    return { body: fetched.body, type: detected.mime as ServedImageType };
  }

  get cachedBytes(): number {
    return this.lru.calculatedSize ?? 0;
  }
  clear(): void {
    this.lru.clear();
  }
}
