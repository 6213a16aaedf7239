/**
 * The service credential: every internal call (distributed mode) carries a short-lived HMAC-SHA256 signature under
 * the deployment's shared SERVICE_SECRET, and the callee's internal listener (internal-listener.ts) serves nothing
 * it cannot verify. The signature covers the caller's name, the expiry, the method, the path as sent and the body's
 * bytes, so an internal command's acting user (inside the body) is part of what was signed: a holder of a captured
 * request can replay it unchanged until it expires, never alter it or send another. The header:
 *
 *   x-ephemera-service: <caller>.<expiry, unix seconds>.<signature, base64url>
 *
 * Signing costs one HMAC over the body per call (a batch of calls is one request: one signature); docs/security.md.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SERVICE_CREDENTIAL_HEADER = 'x-ephemera-service';
/** How long a signature is good for: the longest an internal request waits before it is read, with room to spare. */
export const SERVICE_CREDENTIAL_TTL_SECONDS = 60;
/** Clocks of two pods may differ a little; an expiry further ahead than the TTL plus this is refused too. */
const CLOCK_SKEW_SECONDS = 30;
/** The secret's least length: 32 bytes of randomness (the chart generates 48 characters). */
export const SERVICE_SECRET_MIN_LENGTH = 32;

const CALLER = /^[a-z][a-z0-9-]{0,39}$/;
const HEADER = /^([a-z][a-z0-9-]{0,39})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** Who calls (a service's name, for the callee's logs) and the shared secret it signs with. */
export interface ServiceCredential {
  readonly caller: string;
  readonly secret: Buffer;
}

export function serviceCredential(caller: string, secret: string | Buffer): ServiceCredential {
  if (!CALLER.test(caller)) throw new Error(`service credential: invalid caller name ${JSON.stringify(caller)}`);
  const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
  if (bytes.length < SERVICE_SECRET_MIN_LENGTH)
    throw new Error(`SERVICE_SECRET must be at least ${SERVICE_SECRET_MIN_LENGTH} characters`);
  return { caller, secret: bytes };
}

function mac(
  secret: Buffer,
  caller: string,
  expiry: number,
  method: string,
  path: string,
  body: string | Buffer,
): Buffer {
  return createHmac('sha256', secret)
    .update(`ephemera-service-v1\n${caller}\n${expiry}\n${method.toUpperCase()}\n${path}\n`)
    .update(body)
    .digest();
}

/** The header value for one request: `path` exactly as it goes on the wire (query included), `body` its bytes. */
export function signServiceRequest(
  credential: ServiceCredential,
  method: string,
  path: string,
  body: string | Buffer = '',
  nowMs = Date.now(),
): string {
  const expiry = Math.floor(nowMs / 1000) + SERVICE_CREDENTIAL_TTL_SECONDS;
  return `${credential.caller}.${expiry}.${mac(credential.secret, credential.caller, expiry, method, path, body).toString('base64url')}`;
}

export type ServiceCredentialCheck =
  { ok: true; caller: string } | { ok: false; reason: 'missing' | 'malformed' | 'expired' | 'wrong' };

/** Whether `header` signs this request under `secret`, unexpired (and not expiring implausibly far ahead). */
export function verifyServiceRequest(
  secret: Buffer,
  header: unknown,
  method: string,
  path: string,
  body: string | Buffer,
  nowMs = Date.now(),
): ServiceCredentialCheck {
  if (header === undefined || header === '') return { ok: false, reason: 'missing' };
  const m = typeof header === 'string' ? HEADER.exec(header) : null;
  if (!m) return { ok: false, reason: 'malformed' };
  const [, caller, expiryText, signature] = m;
  const expiry = Number(expiryText);
  const now = nowMs / 1000;
  if (expiry < now || expiry > now + SERVICE_CREDENTIAL_TTL_SECONDS + CLOCK_SKEW_SECONDS)
    return { ok: false, reason: 'expired' };
  const expected = mac(secret, caller, expiry, method, path, body);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'wrong' };
  return { ok: true, caller };
}
