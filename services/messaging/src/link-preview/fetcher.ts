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
 * The address rule is address-guard.ts, the reading of an answer fetch-body.ts, the refusals' words fetch-texts.ts.
 */
import dns from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { DomainError } from '@ephemera/proto';
import { blocked, failed, IMAGE_TEXTS, PAGE_TEXTS, type Texts } from './fetch-texts.ts';
import { bare, effectivePort, guardedLookup, isPublicAddress, isRefusal, normalizeHostPort } from './address-guard.ts';
import { decode, readBody, type Retrieval } from './fetch-body.ts';

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
        const { body, truncated } = await readBody(res, signal, what);
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

  close(): void {
    for (const a of [this.safeHttp, this.safeHttps, this.plainHttp, this.plainHttps]) a.destroy();
  }
}
