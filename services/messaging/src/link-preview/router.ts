/**
 * `POST /api/link-preview/fetch` (docs/protocol.md): bearer-authenticated (the member's room token),
 * rate-limited per user, then the preview. `GET /api/link-preview/image?u=&s=`: the previews' images through our
 * origin, authorized by the signature alone (image-proxy.ts), fetches rate-limited per client address. Mounted by
 * the embedded app and by the messaging server (nginx routes `/api/link-preview/` there in distributed mode).
 */
import express from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { DomainError, LinkPreviewRequestSchema, type RoomTokensApi } from '@ephemera/proto';
import { memberOf, methodNotAllowed, parseOrThrow, publicRoute, roomMemberOf, type Callers } from '@ephemera/platform';
import { LinkPreviewService } from './service.ts';
import { IMAGE_RESPONSE_HEADERS } from './image-proxy.ts';

/** Takes one unit for `key` or throws DomainError('RATE_LIMITED'). The seam for a shared (Redis) limiter. */
export type RateLimit = (key: string) => Promise<void>;

/** Per-process limiter (rate-limiter-flexible): `points` requests per `durationSec` for each key. */
export function memoryRateLimit(points = 30, durationSec = 60): RateLimit {
  const limiter = new RateLimiterMemory({ points, duration: durationSec });
  return async (key) => {
    try {
      await limiter.consume(key);
    } catch (e) {
      if (e instanceof RateLimiterRes) throw new DomainError('RATE_LIMITED');
      throw e;
    }
  };
}

export interface LinkPreviewRouterDeps {
  /** whose a bearer token is (the room service) */
  tokens: RoomTokensApi;
  service: LinkPreviewService;
  limit: RateLimit;
  /** image fetches (cache misses) per client address */
  imageLimit: RateLimit;
}

export function linkPreviewRouter(deps: LinkPreviewRouterDeps): express.Router {
  const r = express.Router();
  const callers: Callers = { member: (req) => roomMemberOf(deps.tokens, req) };
  publicRoute(r, 'linkPreview', callers, async (req, res, caller) => {
    res.set('Cache-Control', 'no-store');
    await deps.limit(`link-preview:${memberOf(caller).userId}`);
    const { url } = parseOrThrow(LinkPreviewRequestSchema, req.body);
    res.json(await deps.service.preview(url));
  });
  methodNotAllowed(r, 'linkPreview');
  publicRoute(r, 'linkPreviewImage', callers, async (req, res) => {
    res.set('Cache-Control', 'no-store'); // refusals are not kept; a served image says otherwise
    const { u, s } = req.query as Record<string, unknown>;
    const image = await deps.service.images.serve(u, s, () =>
      deps.imageLimit(`link-preview-image:${req.ip ?? 'unknown'}`),
    );
    res.status(200).set(IMAGE_RESPONSE_HEADERS).set('Content-Type', image.type).send(image.body);
  });
  methodNotAllowed(r, 'linkPreviewImage');
  return r;
}
