/** Link previews: the public HTTP routes messaging serves in both modes. */
import type express from 'express';
import type { RoomTokensApi } from '@ephemera/proto';
import { linkPreviewRouter, memoryRateLimit, type RateLimit } from './router.ts';
import { LinkPreviewService, type LinkPreviewOptions } from './service.ts';
import { parseAllowHosts } from './address-guard.ts';
import { linkPreviewAllowHostsFromEnv } from '../config.ts';

export { LinkPreviewService, type LinkPreviewOptions } from './service.ts';
export { SafeFetcher, type FetcherOptions, type FetchedPage } from './fetcher.ts';
export { isPublicAddress, parseAllowHosts } from './address-guard.ts';
export { parsePage, type PageMeta } from './parser.ts';
export { PreviewCache, type CacheOptions } from './cache.ts';
export { normalizeUrl, recognize } from './url.ts';
export { linkPreviewRouter, memoryRateLimit, type RateLimit } from './router.ts';
export {
  ImageProxy,
  ImageSigner,
  IMAGE_RESPONSE_HEADERS,
  SERVED_IMAGE_TYPES,
  type ImageProxyOptions,
  type ProxiedImage,
} from './image-proxy.ts';

export interface PublicMessagingDeps {
  /** whose a bearer token is: the room service (embedded its object, distributed ROOM_TOKENS_PREFIX) */
  tokens: RoomTokensApi;
  /** per-user limit; default 30 previews a minute per user in this process (rate-limiter-flexible, memory) */
  limit?: RateLimit;
  /** image fetches (cache misses) per client address; default 120 a minute in this process */
  imageLimit?: RateLimit;
  /** default: SSRF-safe defaults, with LINK_PREVIEW_ALLOW_HOSTS (test only) read from the environment */
  linkPreview?: LinkPreviewService | LinkPreviewOptions;
}

/**
 * The process's link-preview service: SSRF-safe defaults, LINK_PREVIEW_ALLOW_HOSTS (test only) from the environment
 * (validated by config.ts).
 * Pass `masterKey` (the one the messaging module gets): preview images are signed with a key derived from it.
 */
export function linkPreviewServiceFromEnv(options: LinkPreviewOptions = {}): LinkPreviewService {
  return new LinkPreviewService({
    ...options,
    fetcher: { allowHosts: parseAllowHosts(linkPreviewAllowHostsFromEnv().join(',')), ...options.fetcher },
  });
}

/** Messaging's public routes (`/api/link-preview/...`), for the embedded app and the messaging server. */
export function publicMessagingRouter(deps: PublicMessagingDeps): express.Router {
  const service =
    deps.linkPreview instanceof LinkPreviewService ? deps.linkPreview : linkPreviewServiceFromEnv(deps.linkPreview);
  return linkPreviewRouter({
    tokens: deps.tokens,
    service,
    limit: deps.limit ?? memoryRateLimit(),
    imageLimit: deps.imageLimit ?? memoryRateLimit(120, 60),
  });
}
