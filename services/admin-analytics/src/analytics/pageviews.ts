/**
 * POST /api/admin/analytics/pageview (every visitor; fire-and-forget): the page a visitor opened. Answers 204
 * whether or not the view was counted, so a bot learns nothing. Not counted:
 *  - bots (isbot on the User-Agent header and on the body's userAgent), and requests with no user agent at all;
 *  - a reload of the same path by the same visitor within RELOAD_WINDOW_MS (an atomic counter with a TTL in the
 *    ephemeral store: the first view of the window counts).
 * The visitor is an HMAC-SHA256 of the client address and user agent under a random salt of the UTC day (kept
 * only in the ephemeral store, for two days): no address is stored, and one day's ids cannot be linked to
 * another's. A counted view is the event analytics.page-viewed, projected into the daily aggregates.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import express from 'express';
import { isbot } from 'isbot';
import { PageviewBodySchema } from '@ephemera/proto';
import { parseOrThrow } from '@ephemera/platform';
import type { AdminContext } from '../context.ts';
import { dayOf } from './days.ts';
import { pathOnly } from './route-groups.ts';
import { publicRoute } from '@ephemera/platform';
import { adminCallers } from '../superadmin.ts';

export const RELOAD_WINDOW_MS = 60_000;
const SALT_TTL_MS = 2 * 86_400_000;

export function publicAnalyticsRouter(ctx: AdminContext): express.Router {
  const r = express.Router();
  const callers = adminCallers(ctx);
  publicRoute(r, 'pageview', callers, async (req, res) => {
    const address = req.ip ?? 'unknown'; // the app's trust proxy decides whose X-Forwarded-For counts (client-address.ts)
    await ctx.limits.consume('pageviewsPerAddress', address);
    const body = parseOrThrow(PageviewBodySchema, req.body);
    const headerAgent = req.get('user-agent') ?? '';
    const agent = headerAgent || body.userAgent || '';
    if (agent && !isbot(headerAgent) && !isbot(body.userAgent ?? '')) {
      const now = ctx.now();
      const path = pathOnly(body.path);
      const visitor = await visitorId(ctx, address, agent, dayOf(now));
      const reloadKey = `admin:pv:${visitor}:${createHash('sha256').update(path).digest('base64url')}`;
      if ((await ctx.ephemeral.incrWithTtl(reloadKey, RELOAD_WINDOW_MS)) === 1) {
        await ctx.events.record('analytics.page-viewed', { path, visitor, at: now.toISOString() });
      }
    }
    res.status(204).end();
  });
  return r;
}

async function visitorId(ctx: AdminContext, address: string, agent: string, day: string): Promise<string> {
  const salt = await dailySalt(ctx, day);
  return createHmac('sha256', salt).update(`${address}\n${agent}`).digest('base64url').slice(0, 22);
}

/**
 * The day's salt, shared by every replica through the ephemeral store. Two replicas creating it at the same moment
 * may each count one visitor under their own salt before the last write wins (a visitor counted twice, once).
 */
async function dailySalt(ctx: AdminContext, day: string): Promise<string> {
  const key = `admin:visitor-salt:${day}`;
  const existing = await ctx.ephemeral.get(key);
  if (existing) return existing;
  const salt = randomBytes(32).toString('base64url');
  await ctx.ephemeral.set(key, salt, SALT_TTL_MS);
  return (await ctx.ephemeral.get(key)) ?? salt;
}
