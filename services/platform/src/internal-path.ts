/**
 * Which request paths name an internal route, however they are spelled. Internal routes (/internal/...) are served
 * only on each service's internal listener (internal-listener.ts); every public entry (a service's public port, the
 * embedded app, the gateway's HTTP forwarder) refuses a path that resolves to one with 404. "Resolves" covers what
 * any HTTP stack between a client and a service might do to a path: percent-decoding (`%2e`, `%2f`, repeatedly),
 * backslashes read as slashes, dot segments (`/./`, `/api/../`), doubled slashes and letter case.
 */
import type { RequestHandler } from 'express';

export const INTERNAL_PATH_PREFIX = '/internal';

/** Decoding rounds: enough for a path encoded several times over (`%252e`). */
const DECODE_ROUNDS = 4;
const ASCII_ESCAPE = /%([0-7][0-9a-f])/gi;

/**
 * The path with every encoding and normalization above applied. Only ASCII escapes are decoded (a name's UTF-8
 * bytes cannot spell a dot, a slash or "internal"), so a path with a stray `%` decodes too and nothing throws.
 */
export function canonicalPath(path: string): string {
  // an absolute-form target (`GET http://host/internal/x`) names its path after the authority, as servers read it
  let p = path.split(/[?#]/, 1)[0].replace(/^[a-z][a-z0-9+.-]*:\/\/[^/\\]*/i, '');
  for (let i = 0; i < DECODE_ROUNDS; i++) {
    const decoded = p.replace(ASCII_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (decoded === p) break;
    p = decoded;
  }
  const segments: string[] = [];
  for (const segment of p.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`.toLowerCase();
}

/** True for a path that resolves to /internal, /internal/..., or /internal followed by anything but a name character. */
export function isInternalPath(path: string): boolean {
  const p = canonicalPath(path);
  return p.startsWith(INTERNAL_PATH_PREFIX) && !/^[a-z0-9_-]/.test(p.slice(INTERNAL_PATH_PREFIX.length));
}

const PROBE_ORIGIN = 'http://forward.invalid';

/**
 * For a forwarder: the request target exactly as fetch (the WHATWG URL parser) will send it, so that what is
 * checked is what is sent; `null` when it is not an origin-form target (`/...`) or resolves to an internal route.
 */
export function forwardablePath(target: string): string | null {
  if (!target.startsWith('/')) return null;
  let url: URL;
  try {
    url = new URL(PROBE_ORIGIN + target);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  const path = url.pathname + url.search;
  return isInternalPath(url.pathname) || isInternalPath(target) ? null : path;
}

/** Express middleware for a public app: 404 for any path that resolves to an internal route. */
export function refuseInternalPaths(): RequestHandler {
  return (req, res, next) => {
    if (!isInternalPath(req.originalUrl)) {
      next();
      return;
    }
    res.status(404).json({ success: false, code: 'VALIDATION', message: 'Not found' });
  };
}
