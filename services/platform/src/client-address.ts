/**
 * The client's address for per-address limits: the peer address of the connection, or the address a trusted
 * proxy (TRUSTED_PROXIES, e.g. the ingress's address) put in X-Forwarded-For. A client-supplied X-Forwarded-For
 * from anyone else is ignored (docs/product/security.md S6), so nobody escapes a limit by inventing addresses.
 * proxy-addr is the library express itself uses for `trust proxy`; the same list configures both.
 */
import proxyAddr from 'proxy-addr';
import ipaddr from 'ipaddr.js';
import type { IncomingHttpHeaders } from 'node:http';

export type TrustProxy = (address: string, hop: number) => boolean;

/** TRUSTED_PROXIES: comma-separated addresses, CIDR ranges or proxy-addr names (loopback, linklocal, uniquelocal). */
export function parseTrustedProxies(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function trustProxy(list: string[]): TrustProxy {
  if (list.length === 0) return () => false;
  return proxyAddr.compile(list);
}

/** The client's address given the peer and the headers; x-forwarded-for is read only through trusted hops. */
export function clientAddress(
  peer: string,
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>,
  trust: TrustProxy,
): string {
  const req = {
    connection: { remoteAddress: peer },
    socket: { remoteAddress: peer },
    headers,
  } as unknown as Parameters<typeof proxyAddr>[0];
  return normalize(proxyAddr(req, trust));
}

/** Whether the peer itself is a trusted proxy (whose forwarded headers, e.g. X-Forwarded-Host, may be believed). */
export function fromTrustedProxy(peer: string, trust: TrustProxy): boolean {
  return trust(normalize(peer), 0);
}

/** One spelling per address: "::ffff:127.0.0.1" and "127.0.0.1" are one client. */
function normalize(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/**
 * The key a per-address limit counts under: an IPv4 address as it is, an IPv6 address by its /64 prefix. One
 * subscriber (a home, a phone, a server) is handed a whole /64, so keying single IPv6 addresses would give one
 * user 2^64 fresh budgets. An IPv4 address mapped into IPv6 counts as the IPv4 address.
 */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}
