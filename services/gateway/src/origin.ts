/**
 * Origin allowlist for the Socket.IO handshake, polling and websocket alike (SECURITY.md 4): Socket.IO's `cors`
 * option does not stop a websocket upgrade, allowRequest does. A browser always sends Origin; it must be this
 * host or one listed in ALLOWED_ORIGINS. Requests without Origin (non-browser clients) carry no ambient
 * credentials to abuse and are allowed.
 */
export function originAllowed(headers: Record<string, string | string[] | undefined>, allowed: string[]): boolean {
  const origin = headers.origin;
  if (typeof origin !== 'string' || origin === '') return true;
  if (allowed.includes('*') || allowed.includes(origin)) return true;
  try {
    const host = headers['x-forwarded-host'] ?? headers.host;
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
