/**
 * Which addresses the link-preview fetcher may connect to (docs/product/security.md S14): public unicast addresses
 * only, checked on the address a socket connects to (the guarded lookup) and on IP-literal hosts; the test allowlist's
 * `host:port` form. Apart from the fetcher (fetcher.ts), which applies these on every hop.
 */
import type dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Refused by our own lookup guard (the agent's refusals are recognized by their message). */
export class AddressRefused extends Error {
  readonly refused = true;
}
export const isRefusal = (e: unknown): boolean =>
  e instanceof AddressRefused || (e instanceof Error && /is not allowed\. Because/.test(e.message));

/** A public unicast address: the only kind a preview may connect to. Anything ipaddr.js cannot parse is refused. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.parse(address).range() === 'unicast';
}

/** `[::1]` -> `::1` (URL keeps IPv6 hosts in brackets; sockets take them bare). */
export const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');
export const effectivePort = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** `host:port` in the form a URL canonicalizes it to, so `127.1:80` and `127.0.0.1:80` are the same entry. */
export function normalizeHostPort(entry: string): string | null {
  const s = entry.trim();
  if (!s) return null;
  try {
    const u = new URL(`http://${s}`);
    if (!u.port && !/:80$/.test(s)) return null; // a port is required
    return `${u.hostname}:${u.port || 80}`;
  } catch {
    return null;
  }
}

export function parseAllowHosts(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map(normalizeHostPort)
    .filter((x): x is string => x !== null);
}

/** Wraps a resolver so that a name resolving to any non-public address fails the connection. */
export function guardedLookup(inner: LookupFunction): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    inner(hostname, options, ((
      err: NodeJS.ErrnoException | null,
      address: string | dns.LookupAddress[],
      family?: number,
    ) => {
      if (err) return callback(err);
      const all = Array.isArray(address) ? address.map((a) => a.address) : [address];
      if (all.length === 0 || all.some((a) => !isPublicAddress(a)))
        return callback(new AddressRefused(`${hostname} resolves to a refused address`));
      callback(null, address, family);
    }) as never);
  }) as LookupFunction;
}
