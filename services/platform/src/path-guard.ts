/**
 * No path segment that decodes to a control character reaches a route. Route parameters are decoded by express and
 * used as names and ids (in SQL, in keys, in logs); PostgreSQL text cannot hold NUL, and no name or id of the
 * product contains a control character, so such a request is malformed: 400, before any route runs. Mounted first
 * on every public app (service-main.ts serveHttp, the embedded app), so it holds for every route at once.
 */
import type { RequestHandler } from 'express';

/** C0 controls, DEL and C1 controls (general category Cc). */
const CONTROL = /\p{Cc}/u;

/**
 * True when a segment of the path (before the query) decodes to a control character. A segment that does not
 * decode is left to the route (express answers its URIError with 400 through errorHandler; the SPA shows its page).
 */
export function hasControlCharacterSegment(rawPath: string): boolean {
  const path = rawPath.split(/[?#]/, 1)[0]!;
  if (CONTROL.test(path)) return true;
  for (const segment of path.split('/')) {
    if (!segment.includes('%')) continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      continue;
    }
    if (CONTROL.test(decoded)) return true;
  }
  return false;
}

export function refuseControlCharacterPaths(): RequestHandler {
  return (req, res, next) => {
    if (!hasControlCharacterSegment(req.originalUrl)) {
      next();
      return;
    }
    res.status(400).json({
      success: false,
      code: 'VALIDATION',
      message: 'Malformed request: the path contains a control character',
    });
  };
}
