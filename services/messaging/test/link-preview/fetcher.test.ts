/**
 * The link-preview fetcher against real local HTTP servers (no mocks):
 *  1. the SSRF corpus: a page on 127.0.0.1 (and ::1) reached directly, by redirect from an allowed page, by names
 *     resolving to loopback/private addresses (`localhost` through the system resolver; other names through a
 *     resolver the test controls, passed as the fetcher's `lookup`: the same hook DNS answers take), numeric and
 *     IPv6-mapped spellings, private and metadata ranges, non-http schemes, other ports. Every case is refused and
 *     the local server sees no request. Control cases prove each target is really reachable when allowed, so a
 *     broken check would make these tests fail.
 *  2. with the test allowlist: the preview of a page, the redirect limit, the byte cap, HTML only, the deadline, the
 *     cache.
 * What is not covered offline: a real public DNS name (nip.io-style) resolving to loopback; the controlled
 * resolver stands in for it.
 */
import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo, LookupFunction } from 'node:net';
import zlib from 'node:zlib';
import { DomainError } from '@ephemera/proto';
import { SafeFetcher, type FetcherOptions } from '../../src/link-preview/fetcher.ts';
import { BLOCKED_ADDRESS, BLOCKED_PORT, BLOCKED_SCHEME } from '../../src/link-preview/fetch-texts.ts';
import { LinkPreviewService } from '../../src/link-preview/service.ts';
import { ImageSigner } from '../../src/link-preview/image-proxy.ts';
import { DEV_MASTER_KEY } from '@ephemera/platform';

/** A preview's image: the signed same-origin path of the image proxy (the services here use the development key). */
const proxied = (address: string) => new ImageSigner(DEV_MASTER_KEY).path(address);

interface Local {
  port: number;
  seen: string[];
  origin: string;
  server: http.Server;
  close(): Promise<void>;
}

async function serve(handler: http.RequestListener, host = '127.0.0.1'): Promise<Local> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    seen,
    server,
    origin: host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

const OG_PAGE = `<!doctype html><html><head>
  <title>Plain title</title>
  <meta property="og:title" content="Local &amp; Open Graph">
  <meta property="og:description" content="A page served by the test">
  <meta property="og:image" content="/cover.png">
  <meta property="og:site_name" content="Test Site">
  <meta name="author" content="Ada">
</head><body><p>hello</p></body></html>`;

const html = (res: http.ServerResponse, body: string, type = 'text/html; charset=utf-8') => {
  res.writeHead(200, { 'content-type': type });
  res.end(body);
};

/** A resolver the test controls (a DNS server answering whatever an attacker configured). */
const ZONE: Record<string, { address: string; family: 4 | 6 }[]> = {
  'loopback.test': [{ address: '127.0.0.1', family: 4 }],
  'v6-loopback.test': [{ address: '::1', family: 6 }],
  'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
  'nat64.test': [{ address: '64:ff9b::7f00:1', family: 6 }],
  'private.test': [{ address: '10.0.0.1', family: 4 }],
  'private192.test': [{ address: '192.168.1.1', family: 4 }],
  'metadata.test': [{ address: '169.254.169.254', family: 4 }],
  'metadata6.test': [{ address: 'fd00:ec2::254', family: 6 }],
  'cgnat.test': [{ address: '100.64.0.1', family: 4 }],
  'unspecified.test': [{ address: '0.0.0.0', family: 4 }],
  // one public and one loopback answer: a name with any refused address is refused
  'mixed.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'www.youtube.com': [{ address: '127.0.0.1', family: 4 }],
  'www.instagram.com': [{ address: '127.0.0.1', family: 4 }],
};
const lookups: string[] = [];
const testLookup = ((hostname: string, options: { all?: boolean }, cb: (...a: unknown[]) => void) => {
  lookups.push(hostname);
  const answers = ZONE[hostname];
  if (!answers) return dns.lookup(hostname, options as dns.LookupOptions, cb as never); // localhost: the system resolver
  if (options.all) cb(null, answers);
  else cb(null, answers[0]!.address, answers[0]!.family);
}) as unknown as LookupFunction;

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'expected a refusal').toBeInstanceOf(DomainError);
  return err as DomainError;
}

let target: Local; // the "internal" server an attacker wants to reach, on 127.0.0.1
let target6: Local; // the same on ::1
let allowed: Local; // an allowed page (test allowlist) that redirects wherever it is told
const fetchers: SafeFetcher[] = [];
const services: LinkPreviewService[] = [];
const fetcher = (opts: FetcherOptions = {}) => {
  const f = new SafeFetcher({ lookup: testLookup, ...opts });
  fetchers.push(f);
  return f;
};
const previews = (opts: FetcherOptions = {}) => {
  const s = new LinkPreviewService({ fetcher: { lookup: testLookup, ...opts } });
  services.push(s);
  return s;
};

beforeAll(async () => {
  const internal: http.RequestListener = (_req, res) => html(res, '<title>internal secret</title>');
  target = await serve(internal);
  target6 = await serve(internal, '::1');
  allowed = await serve((req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
    if (to !== null) {
      res.writeHead(302, { location: to });
      res.end();
      return;
    }
    html(res, OG_PAGE);
  });
});
afterAll(async () => {
  for (const f of fetchers) f.close();
  for (const s of services) s.close();
  await Promise.all([target?.close(), target6?.close(), allowed?.close()]);
});
beforeEach(() => {
  target.seen.length = 0;
  target6.seen.length = 0;
  allowed.seen.length = 0;
  lookups.length = 0;
});

/** Spellings of the target, all meaning 127.0.0.1 or ::1. */
const spellings = () => [
  `http://127.0.0.1:${target.port}/direct`,
  `http://2130706433:${target.port}/decimal`,
  `http://0x7f000001:${target.port}/hex`,
  `http://0177.0.0.1:${target.port}/octal`,
  `http://127.1:${target.port}/short`,
  `http://0x7f.1:${target.port}/hex-short`,
  `http://[::ffff:127.0.0.1]:${target.port}/mapped`,
  `http://[::ffff:7f00:1]:${target.port}/mapped-hex`,
  `http://localhost:${target.port}/localhost`,
  `http://[::1]:${target6.port}/v6`,
  `http://[0:0:0:0:0:0:0:1]:${target6.port}/v6-long`,
];
/** Names from the controlled resolver that point at the target. */
const namesToTarget = () => [
  `http://loopback.test:${target.port}/name`,
  `http://mapped.test:${target.port}/name-mapped`,
  `http://mixed.test:${target.port}/name-mixed`,
  `http://v6-loopback.test:${target6.port}/name-v6`,
];
const ports = () => [80, 443, target.port, target6.port];

describe('SSRF corpus: controls (each target is reachable when nothing stops it)', () => {
  it('an unguarded client reaches the local server at every numeric spelling', async () => {
    for (const url of spellings()) {
      const before = target.seen.length + target6.seen.length;
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      await res.text();
      expect(target.seen.length + target6.seen.length, url).toBe(before + 1);
    }
  });

  it('the controlled resolver really leads to the local server (allowlisted name: fetched)', async () => {
    const f = fetcher({ allowHosts: [`loopback.test:${target.port}`] });
    const page = await f.fetch(new URL(`http://loopback.test:${target.port}/control`));
    expect(page.html).toContain('internal secret');
    expect(target.seen).toEqual(['/control']);
  });
});

describe('SSRF corpus: refused, and the local server sees nothing', () => {
  it('direct, at every numeric and IPv6 spelling (ports widened: the address check alone refuses)', async () => {
    const f = fetcher({ allowPorts: ports() });
    for (const url of spellings()) {
      const err = await refusal(f.fetch(new URL(url)));
      expect([err.code, err.message], url).toEqual(['LINK_PREVIEW_BLOCKED', BLOCKED_ADDRESS]);
    }
    expect(target.seen).toEqual([]);
    expect(target6.seen).toEqual([]);
  });

  it('direct, with the default rules (ports 80/443 only) through the preview service', async () => {
    const s = previews();
    for (const url of [...spellings(), ...namesToTarget()]) {
      const err = await refusal(s.preview(url));
      expect(err.code, url).toBe('LINK_PREVIEW_BLOCKED');
      expect(err.message, url).toBe(BLOCKED_PORT);
    }
    expect(lookups, 'refused before any DNS lookup').toEqual([]);
    expect(target.seen).toEqual([]);
    expect(target6.seen).toEqual([]);
  });

  it('by names that resolve to loopback (system resolver: localhost; controlled resolver: the others), checked at connect', async () => {
    const f = fetcher({ allowPorts: ports() });
    for (const url of namesToTarget()) {
      const err = await refusal(f.fetch(new URL(url)));
      expect([err.code, err.message], url).toEqual(['LINK_PREVIEW_BLOCKED', BLOCKED_ADDRESS]);
    }
    expect(lookups).toEqual(expect.arrayContaining(['loopback.test', 'mapped.test', 'mixed.test', 'v6-loopback.test']));
    // localhost through the machine's own resolver (no injected lookup)
    const system = new SafeFetcher({ allowPorts: ports() });
    fetchers.push(system);
    const err = await refusal(system.fetch(new URL(`http://localhost:${target.port}/system-resolver`)));
    expect(err.code).toBe('LINK_PREVIEW_BLOCKED');
    expect(target.seen).toEqual([]);
    expect(target6.seen).toEqual([]);
  });

  it('by redirect from an allowed page, to every spelling and name, and to non-http schemes', async () => {
    const f = fetcher({ allowHosts: [`127.0.0.1:${allowed.port}`], allowPorts: ports() });
    const destinations = [
      ...spellings(),
      ...namesToTarget(),
      `//127.0.0.1:${target.port}/scheme-relative`,
      `gopher://127.0.0.1:${target.port}/_GET%20/`,
      `ftp://127.0.0.1:${target.port}/`,
      'file:///etc/passwd',
      'data:text/html,<title>x</title>',
      'javascript:alert(1)',
    ];
    for (const to of destinations) {
      const err = await refusal(f.fetch(new URL(`${allowed.origin}/r?to=${encodeURIComponent(to)}`)));
      expect(err.code, to).toBe('LINK_PREVIEW_BLOCKED');
      expect([BLOCKED_ADDRESS, BLOCKED_SCHEME], to).toContain(err.message);
    }
    expect(allowed.seen.length).toBe(destinations.length); // every first hop was made...
    expect(target.seen).toEqual([]); // ...and no second one
    expect(target6.seen).toEqual([]);
  });

  it('by redirect with the default port rule: to the target port and to port 80 of loopback', async () => {
    const f = fetcher({ allowHosts: [`127.0.0.1:${allowed.port}`] });
    const e1 = await refusal(
      f.fetch(new URL(`${allowed.origin}/r?to=${encodeURIComponent(`http://127.0.0.1:${target.port}/`)}`)),
    );
    expect([e1.code, e1.message]).toEqual(['LINK_PREVIEW_BLOCKED', BLOCKED_PORT]);
    const e2 = await refusal(f.fetch(new URL(`${allowed.origin}/r?to=${encodeURIComponent('http://127.0.0.1/')}`)));
    expect([e2.code, e2.message]).toEqual(['LINK_PREVIEW_BLOCKED', BLOCKED_ADDRESS]);
    expect(target.seen).toEqual([]);
  });

  it('private, link-local, metadata, CGNAT, multicast, broadcast, unspecified, NAT64 and mapped-private literals, and names resolving there', async () => {
    const f = fetcher();
    const urls = [
      'http://10.0.0.1/',
      'http://10.255.255.255/',
      'http://172.16.0.1/',
      'http://172.31.255.255/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://0/',
      'http://255.255.255.255/',
      'http://224.0.0.1/',
      'http://240.0.0.1/',
      'https://127.0.0.1/',
      'https://[::1]/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[fc00::1]/',
      'http://[::]/',
      'http://[ff02::1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[::ffff:10.0.0.1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://[2002:7f00:1::]/',
      'http://private.test/',
      'http://private192.test/',
      'http://metadata.test/',
      'http://metadata6.test/',
      'http://cgnat.test/',
      'http://unspecified.test/',
      'http://nat64.test/',
    ];
    for (const url of urls) {
      const err = await refusal(f.fetch(new URL(url)));
      expect([err.code, err.message], url).toEqual(['LINK_PREVIEW_BLOCKED', BLOCKED_ADDRESS]);
    }
  });

  it('non-http schemes are refused as input (400 VALIDATION) before anything happens', async () => {
    const s = previews();
    for (const url of [
      'file:///etc/passwd',
      `ftp://127.0.0.1:${target.port}/`,
      `gopher://127.0.0.1:${target.port}/_x`,
      'data:text/html,<title>x</title>',
      'javascript:alert(1)',
      `ws://127.0.0.1:${target.port}/`,
    ]) {
      const err = await refusal(s.preview(url));
      expect([err.code, err.status, err.message], url).toEqual([
        'VALIDATION',
        400,
        'Only http and https links can be previewed',
      ]);
    }
    expect(target.seen).toEqual([]);
  });

  it('ports other than 80 and 443 are refused before the name is resolved', async () => {
    const f = fetcher();
    for (const url of [
      'http://93.184.216.34:8080/',
      'https://93.184.216.34:8443/',
      'http://loopback.test:22/',
      `http://loopback.test:${target.port}/`,
      'http://example.com:0/',
    ]) {
      const err = await refusal(f.fetch(new URL(url)));
      expect([err.code, err.message], url).toEqual(['LINK_PREVIEW_BLOCKED', BLOCKED_PORT]);
    }
    expect(lookups).toEqual([]);
    expect(target.seen).toEqual([]);
  });

  it('a YouTube link whose name resolves to loopback is not fetched, and still previews from its address', async () => {
    const s = previews();
    const p = await s.preview('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(p).toEqual({
      type: 'youtube',
      url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      title: null,
      description: null,
      image: null,
      thumbnail: proxied('https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg'),
      author: null,
      siteName: 'YouTube',
      postId: null,
      videoId: 'dQw4w9WgXcQ',
    });
    expect(lookups).toContain('www.youtube.com');
    expect(target.seen).toEqual([]);
  });
});

describe('https: the filtering agent for TLS, and certificates verified', () => {
  let tls: https.Server;
  let port: number;
  let connections = 0;
  let dir: string;
  beforeAll(async () => {
    // a self-signed certificate for 127.0.0.1, made for this run
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-link-preview-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:loopback.test',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    tls = https.createServer(
      { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) },
      (_req, res) => html(res, '<title>internal over tls</title>'),
    );
    tls.on('connection', () => {
      connections++;
    });
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
    port = (tls.address() as AddressInfo).port;
  });
  afterAll(async () => {
    tls?.closeAllConnections();
    await new Promise((r) => tls?.close(r));
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    connections = 0;
  });

  it('refuses https to loopback by literal, by name and by redirect, without opening a connection', async () => {
    const f = fetcher({ allowPorts: [80, 443, port], allowHosts: [`127.0.0.1:${allowed.port}`] });
    for (const url of [
      `https://127.0.0.1:${port}/`,
      `https://loopback.test:${port}/`,
      `https://[::ffff:127.0.0.1]:${port}/`,
      `${allowed.origin}/r?to=${encodeURIComponent(`https://loopback.test:${port}/`)}`,
    ]) {
      const err = await refusal(f.fetch(new URL(url)));
      expect([err.code, err.message], url).toEqual(['LINK_PREVIEW_BLOCKED', BLOCKED_ADDRESS]);
    }
    expect(connections).toBe(0);
  });

  it('verifies certificates (an allowlisted page with a self-signed certificate is not read)', async () => {
    const f = fetcher({ allowHosts: [`127.0.0.1:${port}`] });
    const err = await refusal(f.fetch(new URL(`https://127.0.0.1:${port}/`)));
    expect([err.code, err.message]).toEqual([
      'LINK_PREVIEW_FAILED',
      "The page's secure connection could not be verified",
    ]);
    expect(connections).toBe(1); // it was reached: only the certificate stopped it
  });
});

describe('bounded fetches (test allowlist set to the local server)', () => {
  let page: Local;
  let hits: Record<string, number>;
  let closedEarly: boolean[];
  beforeAll(async () => {
    hits = {};
    closedEarly = [];
    page = await serve((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      hits[url.pathname] = (hits[url.pathname] ?? 0) + 1;
      const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
      if (chain) {
        const n = Number(chain[1]);
        if (n === 0) return html(res, OG_PAGE);
        res.writeHead(n % 2 ? 301 : 307, { location: `/chain/${n - 1}` });
        return res.end();
      }
      switch (url.pathname) {
        case '/og':
        case '/cached':
        case '/concurrent':
          return html(res, OG_PAGE);
        case '/watch':
          return html(res, '<title>Rick - YouTube</title><meta property="og:title" content="Never Gonna Give You Up">');
        case '/p/C1a2B3c4D5e/':
          return html(res, '<meta property="og:title" content="A post"><meta property="og:image" content="/post.jpg">');
        case '/xhtml':
          return html(res, OG_PAGE, 'application/xhtml+xml');
        case '/json':
          return html(res, '{"title":"x"}', 'application/json');
        case '/png':
          return html(res, '\x89PNG', 'image/png');
        case '/text':
          return html(res, '<title>x</title>', 'text/plain');
        case '/no-type':
          res.writeHead(200);
          return res.end('<title>x</title>');
        case '/not-found':
          res.writeHead(404, { 'content-type': 'text/html' });
          return res.end('<title>404</title>');
        case '/latin1':
          res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' });
          return res.end(Buffer.from('<title>Café crème</title>', 'latin1'));
        case '/gzip':
          res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
          return res.end(zlib.gzipSync(OG_PAGE));
        case '/gzip-bomb': {
          // 64 MB of HTML after decompression, about 64 KB on the wire
          res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
          return res.end(zlib.gzipSync(Buffer.concat([Buffer.from(OG_PAGE), Buffer.alloc(64 * 1024 * 1024, 0x20)])));
        }
        case '/endless': {
          // OG tags first, then body forever: only a byte cap ends this.
          res.writeHead(200, { 'content-type': 'text/html' });
          res.write(OG_PAGE.replace('</body></html>', ''));
          const chunk = `<p>${'x'.repeat(64 * 1024)}</p>`;
          let open = true;
          res.on('close', () => {
            open = false;
            closedEarly.push(!res.writableFinished);
          });
          const pump = () => {
            while (open && res.write(chunk));
            if (open) res.once('drain', pump);
          };
          return pump();
        }
        case '/slow-headers':
          return; // never answers
        case '/slow-body': {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.write('<title>drip</title>');
          const timer = setInterval(() => res.write(' '), 100);
          res.on('close', () => clearInterval(timer));
          return;
        }
        default:
          res.writeHead(404);
          return res.end();
      }
    });
  });
  afterAll(async () => {
    await page?.close();
  });

  const allow = () => ({ allowHosts: [`127.0.0.1:${page.port}`] });

  it('a page with Open Graph tags gives the expected preview', async () => {
    const s = previews(allow());
    expect(await s.preview(`${page.origin}/og#section`)).toEqual({
      type: 'other',
      url: `${page.origin}/og`,
      title: 'Local & Open Graph',
      description: 'A page served by the test',
      image: proxied(`${page.origin}/cover.png`),
      thumbnail: null,
      author: 'Ada',
      siteName: 'Test Site',
      postId: null,
      videoId: null,
    });
    expect((await s.preview(`${page.origin}/xhtml`)).title).toBe('Local & Open Graph');
    expect((await s.preview(`${page.origin}/latin1`)).title).toBe('Café crème');
    expect((await s.preview(`${page.origin}/gzip`)).title).toBe('Local & Open Graph');
  });

  it('YouTube and Instagram links are recognized from the address and fetched for their title when allowed', async () => {
    const s = previews({ allowHosts: [`www.youtube.com:${page.port}`, `www.instagram.com:${page.port}`] });
    expect(await s.preview(`http://www.youtube.com:${page.port}/watch?v=dQw4w9WgXcQ`)).toEqual({
      type: 'youtube',
      url: `http://www.youtube.com:${page.port}/watch?v=dQw4w9WgXcQ`,
      title: 'Never Gonna Give You Up',
      description: null,
      image: null,
      thumbnail: proxied('https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg'),
      author: null,
      siteName: 'YouTube',
      postId: null,
      videoId: 'dQw4w9WgXcQ',
    });
    expect(await s.preview(`http://www.instagram.com:${page.port}/p/C1a2B3c4D5e/`)).toMatchObject({
      type: 'instagram',
      title: 'A post',
      image: proxied(`http://www.instagram.com:${page.port}/post.jpg`),
      siteName: 'Instagram',
      postId: 'C1a2B3c4D5e',
      videoId: null,
      thumbnail: null,
    });
    expect(hits['/watch']).toBe(1);
    expect(hits['/p/C1a2B3c4D5e/']).toBe(1);
  });

  it('follows up to 3 redirects, each re-checked, and refuses a longer chain without fetching its end', async () => {
    const f = fetcher(allow());
    const ok = await f.fetch(new URL(`${page.origin}/chain/3`));
    expect(ok.redirects).toBe(3);
    expect(ok.finalUrl.pathname).toBe('/chain/0');
    hits = {};
    const err = await refusal(f.fetch(new URL(`${page.origin}/chain/4`)));
    expect([err.code, err.message]).toEqual(['LINK_PREVIEW_FAILED', 'The link redirects more than 3 times']);
    expect(hits).toEqual({ '/chain/4': 1, '/chain/3': 1, '/chain/2': 1, '/chain/1': 1 });
  });

  it('an endless body is cut at 1 MB: the preview comes from what was read and the connection is dropped', async () => {
    const f = fetcher(allow());
    const started = Date.now();
    const got = await f.fetch(new URL(`${page.origin}/endless`));
    expect(got.truncated).toBe(true);
    expect(Buffer.byteLength(got.html)).toBeLessThanOrEqual(1024 * 1024);
    expect(Buffer.byteLength(got.html)).toBeGreaterThan(1000 * 1024);
    expect(Date.now() - started).toBeLessThan(4000);
    const s = previews(allow());
    expect((await s.preview(`${page.origin}/endless`)).title).toBe('Local & Open Graph');
    await expect.poll(() => closedEarly.length).toBe(2);
    expect(closedEarly).toEqual([true, true]);
  });

  it('a compressed body is capped after decompression (64 MB gzip bomb read to 1 MB)', async () => {
    const f = fetcher(allow());
    const got = await f.fetch(new URL(`${page.origin}/gzip-bomb`));
    expect(got.truncated).toBe(true);
    expect(Buffer.byteLength(got.html)).toBeLessThanOrEqual(1024 * 1024);
  });

  it('refuses content that is not HTML, and error statuses', async () => {
    const f = fetcher(allow());
    for (const path of ['/json', '/png', '/text', '/no-type']) {
      const err = await refusal(f.fetch(new URL(`${page.origin}${path}`)));
      expect([err.code, err.status, err.message], path).toEqual([
        'LINK_PREVIEW_FAILED',
        422,
        'The link does not point to a web page',
      ]);
    }
    const nf = await refusal(f.fetch(new URL(`${page.origin}/not-found`)));
    expect([nf.code, nf.message]).toEqual(['LINK_PREVIEW_FAILED', 'The page answered with an error (404)']);
  });

  it('times out a server that does not answer, and one that drips its body, within the total deadline', async () => {
    const f = fetcher({ ...allow(), timeoutMs: 600 });
    for (const path of ['/slow-headers', '/slow-body']) {
      const started = Date.now();
      const err = await refusal(f.fetch(new URL(`${page.origin}${path}`)));
      expect([err.code, err.message], path).toEqual(['LINK_PREVIEW_FAILED', 'The page took too long to answer']);
      expect(Date.now() - started, path).toBeGreaterThanOrEqual(550);
      expect(Date.now() - started, path).toBeLessThan(3000);
    }
  });

  it('serves a second request for the same (normalized) address from the cache: the server sees one request', async () => {
    const s = previews(allow());
    const first = await s.preview(`${page.origin}/cached`);
    const again = await s.preview(`${page.origin.toUpperCase().replace('HTTP', 'http')}/cached#other-fragment`);
    expect(again).toEqual(first);
    expect(hits['/cached']).toBe(1);
    await Promise.all(Array.from({ length: 5 }, () => s.preview(`${page.origin}/concurrent`)));
    expect(hits['/concurrent']).toBe(1);
  });

  it('caches a failure briefly: a bad link is fetched once, then again after the failure TTL', async () => {
    const s = new LinkPreviewService({ fetcher: allow(), cache: { failureTtlMs: 300 } });
    services.push(s);
    hits['/json'] = 0;
    for (let i = 0; i < 3; i++)
      expect((await refusal(s.preview(`${page.origin}/json`))).code).toBe('LINK_PREVIEW_FAILED');
    expect(hits['/json']).toBe(1);
    await new Promise((r) => setTimeout(r, 400));
    await refusal(s.preview(`${page.origin}/json`));
    expect(hits['/json']).toBe(2);
  });
});
