/**
 * The SSRF-safe page fetcher behind link previews (docs/product/security.md S14, S15; docs/link-previews.md).
 *
 * - http and https only, on ports 80 and 443 only (plus the test-only allowlist, LINK_PREVIEW_ALLOW_HOSTS).
 * - Every hop's address is checked when its socket connects: `request-filtering-agent` wraps the DNS lookup of the
 *   connection itself (so the address checked is the address connected to: no second resolution a rebinding DNS
 *   server could answer differently) and refuses IP-literal hosts before a socket exists. Under it our own lookup
 *   guard applies the same rule with ipaddr.js, and IP-literal hosts are refused before any request. The rule:
 *   only `unicast` addresses in ipaddr.js's classification, which refuses loopback, private, link-local
 *   (169.254.169.254 included), unique-local (fd00:ec2::254 included), multicast, unspecified, broadcast, CGNAT,
 *   reserved, IPv4-mapped/translated IPv6, NAT64 (64:ff9b::/96), 6to4 and Teredo.
 * - Numeric spellings (2130706433, 0x7f000001, 0177.0.0.1, 127.1, [::ffff:7f00:1]) are canonicalized by the WHATWG
 *   URL parser before any check, so they are checked as the address they mean.
 * - Redirects are followed by hand (at most `maxRedirects`), each hop re-checked from the start.
 * - One deadline for the whole fetch (every hop, DNS, connect, body); the body is read up to `maxBytes` (after
 *   decompression) and the connection dropped there; only HTML content types are read.
 * - `fetchImage` (the image proxy, image-proxy.ts) goes through the same hops and checks; it reads only `image/*`
 *   answers (never SVG) and refuses, instead of cutting, a body longer than its cap.
 */
import dns from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { DomainError } from '@ephemera/proto';

export interface FetcherOptions {
  /** total time for every hop and the body (default 5000 ms) */
  timeoutMs?: number;
  /** bytes of (decompressed) body read at most; the rest is not read (default 1 MB) */
  maxBytes?: number;
  /** redirects followed at most (default 3) */
  maxRedirects?: number;
  /**
   * TEST ONLY: `host:port` pairs fetched without the address check and off the standard ports
   * (LINK_PREVIEW_ALLOW_HOSTS; empty by default). Everything else keeps every check.
   */
  allowHosts?: string[];
  /** ports allowed (default 80 and 443); tests widen it to prove the address check on its own */
  allowPorts?: number[];
  /** the resolver sockets use (default dns.lookup); tests inject one they control. Its answers are checked. */
  lookup?: LookupFunction;
  userAgent?: string;
}

export interface FetchedPage {
  /** the address of the page finally read (after redirects) */
  finalUrl: URL;
  html: string;
  /** the body was longer than maxBytes and was cut there */
  truncated: boolean;
  redirects: number;
}

export interface FetchedImage {
  /** the address of the image finally read (after redirects) */
  finalUrl: URL;
  body: Buffer;
  /** the media type the server claimed (image/*); what is served is decided from the bytes */
  declaredType: string;
  redirects: number;
}

export const DEFAULTS = {
  timeoutMs: 5000,
  maxBytes: 1024 * 1024,
  maxRedirects: 3,
  maxImageBytes: 5 * 1024 * 1024,
} as const;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const blocked = (message: string) => new DomainError('LINK_PREVIEW_BLOCKED', message);
const failed = (message: string) => new DomainError('LINK_PREVIEW_FAILED', message);
export const BLOCKED_ADDRESS = 'Links to local or private network addresses cannot be previewed';
export const BLOCKED_SCHEME = 'Only http and https links can be previewed';
export const BLOCKED_PORT = 'Only links on the standard web ports (80 and 443) can be previewed';

/** The words of the refusals: a page (the preview) or an image (the image proxy). */
interface Texts {
  blockedAddress: string;
  blockedScheme: string;
  blockedPort: string;
  noLocation: string;
  badLocation: string;
  tooManyRedirects: (n: number) => string;
  status: (s: number) => string;
  wrongType: string;
  tooLarge: (max: number) => string;
  encoding: string;
  unreadable: string;
  slow: string;
  notFound: string;
  tls: string;
  connect: string;
}
const PAGE_TEXTS: Texts = {
  blockedAddress: BLOCKED_ADDRESS,
  blockedScheme: BLOCKED_SCHEME,
  blockedPort: BLOCKED_PORT,
  noLocation: 'The page redirects without saying where',
  badLocation: 'The page redirects to an invalid address',
  tooManyRedirects: (n) => `The link redirects more than ${n} times`,
  status: (s) => `The page answered with an error (${s})`,
  wrongType: 'The link does not point to a web page',
  tooLarge: () => 'The page is too large',
  encoding: 'The page uses an unsupported encoding',
  unreadable: 'The page could not be read',
  slow: 'The page took too long to answer',
  notFound: 'The address could not be found',
  tls: "The page's secure connection could not be verified",
  connect: 'Could not connect to the page',
};
export const IMAGE_BLOCKED_ADDRESS = 'Images on local or private network addresses are not served';
export const IMAGE_NOT_AN_IMAGE = 'The address does not point to an image';
export const IMAGE_TEXTS: Texts = {
  blockedAddress: IMAGE_BLOCKED_ADDRESS,
  blockedScheme: 'Only http and https images are served',
  blockedPort: 'Only images on the standard web ports (80 and 443) are served',
  noLocation: 'The image redirects without saying where',
  badLocation: 'The image redirects to an invalid address',
  tooManyRedirects: (n) => `The image redirects more than ${n} times`,
  status: (s) => `The image server answered with an error (${s})`,
  wrongType: IMAGE_NOT_AN_IMAGE,
  tooLarge: (max) => `The image is too large (${Math.round(max / 1024 / 1024)} MB max)`,
  encoding: 'The image uses an unsupported encoding',
  unreadable: 'The image could not be read',
  slow: 'The image took too long to load',
  notFound: "The image's address could not be found",
  tls: "The image server's secure connection could not be verified",
  connect: 'Could not connect to the image server',
};

/** What one retrieval reads: the accepted media types, the cap and what happens past it, the words. */
interface Retrieval {
  accept: string;
  accepts(mediaType: string): boolean;
  maxBytes: number;
  /** past maxBytes: keep what was read (a page: its head is enough) or refuse (an image cut short is no image) */
  overflow: 'cut' | 'refuse';
  texts: Texts;
}

/** Refused by our own lookup guard (the agent's refusals are recognized by their message). */
class AddressRefused extends Error {
  readonly refused = true;
}
const isRefusal = (e: unknown): boolean =>
  e instanceof AddressRefused || (e instanceof Error && /is not allowed\. Because/.test(e.message));

/** A public unicast address: the only kind a preview may connect to. Anything ipaddr.js cannot parse is refused. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.parse(address).range() === 'unicast';
}

/** `[::1]` -> `::1` (URL keeps IPv6 hosts in brackets; sockets take them bare). */
const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');
const effectivePort = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

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
function guardedLookup(inner: LookupFunction): LookupFunction {
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

export class SafeFetcher {
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;
  private readonly allowHosts: Set<string>;
  private readonly allowPorts: Set<number>;
  private readonly lookup: LookupFunction;
  private readonly userAgent: string;
  private readonly safeHttp = new RequestFilteringHttpAgent({ keepAlive: false });
  private readonly safeHttps = new RequestFilteringHttpsAgent({ keepAlive: false });
  // Only ever used for the test allowlist's host:port pairs.
  private readonly plainHttp = new http.Agent({ keepAlive: false });
  private readonly plainHttps = new https.Agent({ keepAlive: false });

  constructor(opts: FetcherOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? DEFAULTS.timeoutMs;
    this.maxBytes = opts.maxBytes ?? DEFAULTS.maxBytes;
    this.maxRedirects = opts.maxRedirects ?? DEFAULTS.maxRedirects;
    this.allowHosts = new Set((opts.allowHosts ?? []).map(normalizeHostPort).filter((x): x is string => x !== null));
    this.allowPorts = new Set(opts.allowPorts ?? [80, 443]);
    this.lookup = opts.lookup ?? (dns.lookup as LookupFunction);
    this.userAgent = opts.userAgent ?? 'Mozilla/5.0 (compatible; EphemeraLinkPreview/1.0)';
  }

  /** Fetch an HTML page under every rule above; DomainError LINK_PREVIEW_BLOCKED / LINK_PREVIEW_FAILED otherwise. */
  async fetch(start: URL): Promise<FetchedPage> {
    const got = await this.retrieve(start, {
      accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
      accepts: (t) => HTML_TYPES.has(t),
      maxBytes: this.maxBytes,
      overflow: 'cut',
      texts: PAGE_TEXTS,
    });
    return {
      finalUrl: got.finalUrl,
      html: decode(got.body, got.contentType),
      truncated: got.truncated,
      redirects: got.redirects,
    };
  }

  /**
   * Fetch an image under the same rules (every hop checked at connect time, redirects limited, one deadline):
   * only `image/*` answers other than SVG are read, and a body longer than `maxBytes` is refused (the
   * Content-Length is checked first, the count after decompression stops the read). The caller decides the type
   * from the bytes. DomainError LINK_PREVIEW_BLOCKED / LINK_PREVIEW_FAILED otherwise.
   */
  async fetchImage(start: URL, maxBytes: number = DEFAULTS.maxImageBytes): Promise<FetchedImage> {
    const got = await this.retrieve(start, {
      accept: 'image/webp,image/png,image/jpeg,image/gif;q=0.9',
      accepts: (t) => t.startsWith('image/') && !t.startsWith('image/svg'),
      maxBytes,
      overflow: 'refuse',
      texts: IMAGE_TEXTS,
    });
    return { finalUrl: got.finalUrl, body: got.body, declaredType: got.mediaType, redirects: got.redirects };
  }

  private async retrieve(
    start: URL,
    what: Retrieval,
  ): Promise<{
    finalUrl: URL;
    body: Buffer;
    truncated: boolean;
    contentType: string;
    mediaType: string;
    redirects: number;
  }> {
    const t = what.texts;
    const signal = AbortSignal.timeout(this.timeoutMs);
    let url = new URL(start.href);
    try {
      for (let redirects = 0; ; redirects++) {
        const allowlisted = this.check(url, t);
        const res = await this.request(url, allowlisted, signal, what.accept);
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status)) {
          res.destroy();
          const location = res.headers.location;
          if (!location) throw failed(t.noLocation);
          if (redirects >= this.maxRedirects) throw failed(t.tooManyRedirects(this.maxRedirects));
          let next: URL;
          try {
            next = new URL(location, url);
          } catch {
            throw failed(t.badLocation);
          }
          next.hash = '';
          url = next;
          continue;
        }
        if (status < 200 || status >= 300) {
          res.destroy();
          throw failed(t.status(status));
        }
        const contentType = String(res.headers['content-type'] ?? '');
        const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
        if (!what.accepts(mediaType)) {
          res.destroy();
          throw failed(t.wrongType);
        }
        const declared = Number(res.headers['content-length']);
        if (what.overflow === 'refuse' && Number.isFinite(declared) && declared > what.maxBytes) {
          res.destroy();
          throw failed(t.tooLarge(what.maxBytes));
        }
        const { body, truncated } = await this.readBody(res, signal, what);
        return { finalUrl: url, body, truncated, contentType, mediaType, redirects };
      }
    } catch (e) {
      if (e instanceof DomainError) throw e;
      if (signal.aborted) throw failed(t.slow);
      if (isRefusal(e)) throw blocked(t.blockedAddress);
      const code = (e as NodeJS.ErrnoException).code ?? '';
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') throw failed(t.notFound);
      if (/CERT|TLS|SSL/.test(code)) throw failed(t.tls);
      throw failed(t.connect);
    }
  }

  /** The checks made before a hop's request; true when the hop is on the test allowlist. */
  private check(url: URL, t: Texts): boolean {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw blocked(t.blockedScheme);
    if (url.username || url.password) {
      url.username = '';
      url.password = '';
    }
    const port = effectivePort(url);
    if (this.allowHosts.has(`${url.hostname}:${port}`)) return true;
    if (!this.allowPorts.has(port)) throw blocked(t.blockedPort);
    const host = bare(url.hostname);
    if (net.isIP(host) !== 0 && !isPublicAddress(host)) throw blocked(t.blockedAddress);
    return false;
  }

  private request(url: URL, allowlisted: boolean, signal: AbortSignal, accept: string): Promise<IncomingMessage> {
    const secure = url.protocol === 'https:';
    const agent = allowlisted ? (secure ? this.plainHttps : this.plainHttp) : secure ? this.safeHttps : this.safeHttp;
    return new Promise((resolve, reject) => {
      const req = (secure ? https : http).request({
        protocol: url.protocol,
        hostname: bare(url.hostname),
        port: effectivePort(url),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        agent,
        signal,
        // The filtering agent wraps this lookup again with request-filtering-agent's own check.
        lookup: allowlisted ? this.lookup : guardedLookup(this.lookup),
        headers: {
          'user-agent': this.userAgent,
          accept,
          'accept-encoding': 'gzip, deflate, br',
          'accept-language': 'en',
          connection: 'close',
        },
      });
      req.once('response', resolve);
      req.once('error', reject);
      req.end();
    });
  }

  /** Read at most maxBytes of the decompressed body, then drop the connection (and cut or refuse, as asked). */
  private readBody(
    res: IncomingMessage,
    signal: AbortSignal,
    what: Retrieval,
  ): Promise<{ body: Buffer; truncated: boolean }> {
    const { maxBytes, texts: t } = what;
    const encoding = String(res.headers['content-encoding'] ?? 'identity')
      .trim()
      .toLowerCase();
    let stream: Readable;
    if (encoding === 'identity' || encoding === '') stream = res;
    else if (encoding === 'gzip' || encoding === 'x-gzip') stream = res.pipe(zlib.createGunzip());
    else if (encoding === 'deflate') stream = res.pipe(zlib.createInflate());
    else if (encoding === 'br') stream = res.pipe(zlib.createBrotliDecompress());
    else {
      res.destroy();
      return Promise.reject(failed(t.encoding));
    }

    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const settle = (fn: () => void) => {
        if (done) return;
        done = true;
        signal.removeEventListener('abort', onAbort);
        res.destroy();
        if (stream !== res) stream.destroy();
        fn();
      };
      const onAbort = () => settle(() => reject(signal.reason));
      signal.addEventListener('abort', onAbort, { once: true });
      stream.on('data', (chunk: Buffer) => {
        if (done) return;
        chunks.push(chunk);
        size += chunk.length;
        if (what.overflow === 'refuse' ? size > maxBytes : size >= maxBytes) {
          settle(() =>
            what.overflow === 'refuse'
              ? reject(failed(t.tooLarge(maxBytes)))
              : resolve({ body: Buffer.concat(chunks).subarray(0, maxBytes), truncated: true }),
          );
        }
      });
      stream.on('end', () => settle(() => resolve({ body: Buffer.concat(chunks), truncated: false })));
      const onError = () => settle(() => reject(failed(t.unreadable)));
      stream.on('error', onError);
      if (stream !== res) res.on('error', onError);
      res.on('close', () => {
        if (!res.complete) onError();
      });
    });
  }

  close(): void {
    for (const a of [this.safeHttp, this.safeHttps, this.plainHttp, this.plainHttps]) a.destroy();
  }
}

/** Bytes to text: the charset of the Content-Type header, else a <meta charset> near the start, else UTF-8. */
function decode(body: Buffer, contentType: string): string {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  const fromMeta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  for (const label of [fromHeader, fromMeta, 'utf-8']) {
    if (!label) continue;
    try {
      return new TextDecoder(label).decode(body);
    } catch {
      /* unknown label: try the next */
    }
  }
  return body.toString('utf8');
}
