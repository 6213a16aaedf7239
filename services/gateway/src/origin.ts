/**
 * Origin allowlist for the Socket.IO handshake, polling and websocket alike (docs/product/security.md S4):
 * Socket.IO's `cors`
 * option does not stop a websocket upgrade, allowRequest does. A browser always sends Origin; it must be this
 * host or one listed in ALLOWED_ORIGINS. Requests without Origin (non-browser clients) carry no ambient
 * credentials to abuse and are allowed.
 * "This host" is the Host header; X-Forwarded-Host is believed only when the request comes from a trusted proxy
 * (TRUSTED_PROXIES), since anyone else can send it to make any Origin look same-host.
 */
export function originAllowed(
  headers: Record<string, string | string[] | undefined>,
  allowed: string[],
  options: { fromTrustedProxy?: boolean } = {},
): boolean {
  const origin = headers.origin;
  if (typeof origin !== 'string' || origin === '') return true;
  if (allowed.includes('*') || allowed.includes(origin)) return true;
  try {
    const forwarded = options.fromTrustedProxy ? first(headers['x-forwarded-host']) : undefined;
    const host = forwarded ?? first(headers.host);
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** A proxy chain may list several hosts; the first is the one the browser asked for. */
function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v?.split(',')[0]?.trim() || undefined;
}
