/**
 * The image proxy (GET /api/link-preview/image, image-proxy.ts) against real local servers (no mocks): the router
 * on a real express app with the platform's error handler, the image origin on 127.0.0.1 on the test allowlist,
 * an "internal" server on 127.0.0.1 that must never be contacted.
 *  - previews carry signed same-origin paths; only those are fetched (unsigned or tampered: 403, no request);
 *  - the served type comes from the bytes (JPEG, PNG, GIF, WebP), SVG/HTML labelled as images are refused;
 *  - every SSRF rule of the page fetcher applies (loopback refused by address and by redirect, never contacted);
 *  - the byte cap (declared, endless, decompressed), the cache (one fetch, bounded by bytes), the rate limit.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import http from 'node:http';
import zlib from 'node:zlib';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { ERRORS, LINK_PREVIEW_IMAGE_PATH } from '@ephemera/proto';
import { createLogger, errorHandler } from '@ephemera/platform';
import { LinkPreviewService, type LinkPreviewOptions } from '../../src/link-preview/service.ts';
import {
  ImageSigner,
  IMAGE_RESPONSE_HEADERS,
  NOT_SIGNED,
  UNSUPPORTED_IMAGE,
} from '../../src/link-preview/image-proxy.ts';
import { IMAGE_BLOCKED_ADDRESS, IMAGE_NOT_AN_IMAGE } from '../../src/link-preview/fetch-texts.ts';
import { linkPreviewRouter, memoryRateLimit, type RateLimit } from '../../src/link-preview/router.ts';
import { DEV_MASTER_KEY } from '@ephemera/platform';

export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
  0x00, 0xff, 0xd9,
]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x1a, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(18),
]);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>';
const HTML = '<!doctype html><html><body><script>alert(document.domain)</script></body></html>';
const MB = 1024 * 1024;

interface Local {
  port: number;
  origin: string;
  seen: string[];
  close(): Promise<void>;
}
async function serve(handler: http.RequestListener): Promise<Local> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

const send = (res: http.ServerResponse, type: string, body: Buffer | string) => {
  res.writeHead(200, { 'content-type': type });
  res.end(body);
};

let images: Local; // the image origin (allowlisted)
let internal: Local; // an internal server on loopback: never contacted
let app: { url: string; close(): Promise<void> };
let service: LinkPreviewService;
const others: LinkPreviewService[] = [];

beforeAll(async () => {
  internal = await serve((_req, res) => send(res, 'image/png', PNG));
  images = await serve((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    switch (u.pathname) {
      case '/page.html':
        return send(
          res,
          'text/html',
          `<html><head><meta property="og:image" content="${u.searchParams.get('img') ?? '/a.png'}"></head></html>`,
        );
      case '/a.png':
      case '/b.png':
      case '/c.png':
      case '/d.png':
      case '/e.png':
        return send(res, 'image/png', PNG);
      case '/a.gif':
        return send(res, 'image/png', GIF); // mislabelled: the bytes decide
      case '/a.jpg':
        return send(res, 'image/jpeg', JPEG);
      case '/a.webp':
        return send(res, 'image/webp', WEBP);
      case '/svg-as-png':
        return send(res, 'image/png', SVG);
      case '/html-as-png':
        return send(res, 'image/png', HTML);
      case '/real.svg':
        return send(res, 'image/svg+xml', SVG);
      case '/page-as-image':
        return send(res, 'text/html', HTML);
      case '/empty.png':
        return send(res, 'image/png', '');
      case '/missing.png':
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('no');
      case '/redirect':
        res.writeHead(302, { location: u.searchParams.get('to') ?? '/' });
        return res.end();
      case '/big.png': {
        // declared: 6 MB
        const body = Buffer.concat([PNG, Buffer.alloc(6 * MB)]);
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length });
        return res.end(body);
      }
      case '/endless.png': {
        // no length: a body that never ends
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(PNG);
        const chunk = Buffer.alloc(64 * 1024);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
        return;
      }
      case '/bomb.png': {
        // 64 MB of zeros in about 64 KB of gzip
        const body = zlib.gzipSync(Buffer.concat([PNG, Buffer.alloc(64 * MB)]));
        res.writeHead(200, { 'content-type': 'image/png', 'content-encoding': 'gzip', 'content-length': body.length });
        return res.end(body);
      }
      default:
        res.writeHead(404);
        return res.end();
    }
  });
  service = newService();
  app = await startApp(service, memoryRateLimit(1000, 60));
});
afterAll(async () => {
  await app?.close();
  for (const s of [service, ...others]) s?.close();
  await images?.close();
  await internal?.close();
});

function newService(opts: LinkPreviewOptions = {}): LinkPreviewService {
  const s = new LinkPreviewService({ ...opts, fetcher: { allowHosts: [`127.0.0.1:${images.port}`], ...opts.fetcher } });
  if (service) others.push(s);
  return s;
}

/** The real router on a real express app, with the platform's error handler (what both modes mount). */
async function startApp(s: LinkPreviewService, imageLimit: RateLimit) {
  const web = express();
  web.use(linkPreviewRouter({ tokens: undefined as never, service: s, limit: memoryRateLimit(), imageLimit }));
  web.use(errorHandler(createLogger('test', 'silent')));
  const server = await new Promise<http.Server>((r) => {
    const h = web.listen(0, '127.0.0.1', () => r(h));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

const signer = new ImageSigner(DEV_MASTER_KEY);
const get = async (base: string, path: string) => {
  const res = await fetch(base + path);
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, json: () => JSON.parse(body.toString('utf8')) };
};
const unsigned = (address: string, s = '') =>
  `${LINK_PREVIEW_IMAGE_PATH}?u=${encodeURIComponent(address)}${s ? `&s=${s}` : ''}`;

describe('signed same-origin image paths', () => {
  it('a preview answers its image (and a YouTube thumbnail) as a signed path of this origin, never the address itself', async () => {
    const preview = await service.preview(`${images.origin}/page.html`);
    expect(preview.image).toBe(signer.path(`${images.origin}/a.png`));
    expect(preview.image).toMatch(
      /^\/api\/link-preview\/image\?u=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fa\.png&s=[\w-]{43}$/,
    );
    const yt = await service.preview('https://www.youtube.com/watch?v=dQw4w9WgXcQ').catch(() => null);
    // offline the page cannot be fetched: the answer is made from the address alone, thumbnail included
    expect(yt?.thumbnail).toBe(signer.path('https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg'));
  });

  it('the signing key derives from the master key: another key signs differently, and the signature covers the whole address', () => {
    const other = new ImageSigner(Buffer.alloc(32, 7));
    const address = `${images.origin}/a.png`;
    expect(other.sign(address)).not.toBe(signer.sign(address));
    expect(signer.verify(address, signer.sign(address))).toBe(true);
    expect(signer.verify(address, other.sign(address))).toBe(false);
    expect(signer.verify(`${address}?x`, signer.sign(address))).toBe(false);
    expect(signer.verify(address, signer.sign(address).slice(0, -1))).toBe(false);
    expect(signer.verify(address, '')).toBe(false);
  });
});

describe('GET /api/link-preview/image', () => {
  it('serves JPEG, PNG, GIF and WebP with the type read from the bytes and the safe headers', async () => {
    const cases: [string, Buffer, string][] = [
      ['/a.png', PNG, 'image/png'],
      ['/a.jpg', JPEG, 'image/jpeg'],
      ['/a.gif', GIF, 'image/gif'],
      ['/a.webp', WEBP, 'image/webp'],
    ];
    for (const [path, bytes, type] of cases) {
      const res = await get(app.url, signer.path(images.origin + path));
      expect(res.status, path).toBe(200);
      expect(res.body.equals(bytes), path).toBe(true);
      expect(res.headers.get('content-type'), path).toBe(type);
      for (const [name, value] of Object.entries(IMAGE_RESPONSE_HEADERS))
        expect(res.headers.get(name), `${path} ${name}`).toBe(value);
      expect(res.headers.get('content-disposition')).toBe('inline'); // no filename
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(res.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
    }
  });

  it('fetches an image once for repeated and concurrent requests; the cache is bounded by bytes', async () => {
    const path = signer.path(`${images.origin}/b.png`);
    const before = images.seen.filter((p) => p === '/b.png').length;
    const answers = await Promise.all(Array.from({ length: 5 }, () => get(app.url, path)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await get(app.url, path)).status).toBe(200);
    expect(images.seen.filter((p) => p === '/b.png').length - before).toBe(1);

    const small = newService({ images: { cacheBytes: PNG.length * 2 } });
    for (const p of ['/c.png', '/d.png', '/e.png'])
      await small.images.serve(`${images.origin}${p}`, signer.sign(`${images.origin}${p}`));
    expect(small.images.cachedBytes).toBeLessThanOrEqual(PNG.length * 2);
    const seenC = images.seen.filter((p) => p === '/c.png').length;
    await small.images.serve(`${images.origin}/c.png`, signer.sign(`${images.origin}/c.png`)); // evicted: fetched again
    expect(images.seen.filter((p) => p === '/c.png').length).toBe(seenC + 1);
  });

  it('an unsigned, tampered or foreign-key address is 403 with the error body, and nothing is fetched', async () => {
    const good = `${images.origin}/a.png`;
    const target = `${images.origin}/never.png`;
    const internalAddress = `${internal.origin}/secret.png`;
    const s = signer.sign(good);
    const flipped = (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    const paths = [
      LINK_PREVIEW_IMAGE_PATH,
      unsigned(target),
      unsigned(internalAddress),
      `${LINK_PREVIEW_IMAGE_PATH}?s=${s}`,
      unsigned(target, s), // a valid signature of another address
      unsigned(`${good}?x=1`, s),
      unsigned(good, flipped),
      unsigned(good, s.slice(0, -2)),
      unsigned(good, `${s}AA`),
      unsigned(good, new ImageSigner(randomBytes(32)).sign(good)),
      unsigned(internalAddress, new ImageSigner(randomBytes(32)).sign(internalAddress)),
      `${unsigned(good, s)}&u=${encodeURIComponent(target)}`, // two addresses
      `${LINK_PREVIEW_IMAGE_PATH}?u=${encodeURIComponent(good)}&s=${s}&s=${s}`, // two signatures
    ];
    const seen = images.seen.length;
    for (const path of paths) {
      const res = await get(app.url, path);
      expect(res.status, path).toBe(403);
      expect(res.json(), path).toEqual({ success: false, code: 'FORBIDDEN', message: NOT_SIGNED });
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
    expect(images.seen.length).toBe(seen);
    expect(images.seen).not.toContain('/never.png');
    expect(internal.seen).toEqual([]);
  });

  it('refuses SVG, HTML labelled as an image, pages, empty bodies and error answers (4xx with a clear message)', async () => {
    const cases: [string, string][] = [
      ['/svg-as-png', UNSUPPORTED_IMAGE],
      ['/html-as-png', UNSUPPORTED_IMAGE],
      ['/real.svg', IMAGE_NOT_AN_IMAGE],
      ['/page-as-image', IMAGE_NOT_AN_IMAGE],
      ['/empty.png', IMAGE_NOT_AN_IMAGE],
      ['/missing.png', 'The image server answered with an error (404)'],
    ];
    for (const [path, message] of cases) {
      const res = await get(app.url, signer.path(images.origin + path));
      expect([res.status, res.json()], path).toEqual([422, { success: false, code: 'LINK_PREVIEW_FAILED', message }]);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
    }
    expect(images.seen).toContain('/svg-as-png'); // fetched, then refused from its bytes
  });

  it('refuses loopback, private and metadata addresses (directly and by redirect) without contacting them', async () => {
    // The internal server's port is allowed here, so only the address rule stands between the fetch and it.
    const open = newService({ fetcher: { allowPorts: [80, 443, internal.port] } });
    const openApp = await startApp(open, memoryRateLimit(1000, 60));
    try {
      const refused = [
        `http://127.0.0.1:${internal.port}/secret.png`,
        `http://localhost:${internal.port}/secret.png`,
        `http://2130706433:${internal.port}/secret.png`,
        `http://[::ffff:127.0.0.1]:${internal.port}/secret.png`,
        `${images.origin}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${internal.port}/secret.png`)}`,
        'http://169.254.169.254/latest/meta-data/x.png',
        'http://10.0.0.1/x.png',
        'http://[::1]/x.png',
      ];
      for (const address of refused) {
        const res = await get(openApp.url, signer.path(address));
        expect([res.status, res.json()], address).toEqual([
          422,
          { success: false, code: 'LINK_PREVIEW_BLOCKED', message: IMAGE_BLOCKED_ADDRESS },
        ]);
      }
      // non-http schemes and other ports, with the default fetcher
      expect((await get(app.url, signer.path(`http://127.0.0.1:${internal.port}/secret.png`))).json().code).toBe(
        'LINK_PREVIEW_BLOCKED',
      );
      expect((await get(app.url, signer.path('file:///etc/passwd'))).json()).toEqual({
        success: false,
        code: 'LINK_PREVIEW_BLOCKED',
        message: 'Only http and https images are served',
      });
      expect(internal.seen).toEqual([]);

      // control: the same internal image is served when its address is allowlisted, so the refusals above are real
      const control = newService({ fetcher: { allowHosts: [`127.0.0.1:${internal.port}`] } });
      const img = await control.images.serve(
        `http://127.0.0.1:${internal.port}/secret.png`,
        signer.sign(`http://127.0.0.1:${internal.port}/secret.png`),
      );
      expect(img.type).toBe('image/png');
      expect(internal.seen).toEqual(['/secret.png']);
    } finally {
      await openApp.close();
      internal.seen.length = 0;
    }
  });

  it('refuses an image over 5 MB: declared, endless, or decompressed (a gzip bomb)', async () => {
    for (const path of ['/big.png', '/endless.png', '/bomb.png']) {
      const started = Date.now();
      const res = await get(app.url, signer.path(images.origin + path));
      expect([res.status, res.json()], path).toEqual([
        422,
        { success: false, code: 'LINK_PREVIEW_FAILED', message: 'The image is too large (5 MB max)' },
      ]);
      expect(Date.now() - started, path).toBeLessThan(4000);
    }
  });

  it('limits image fetches per client address (cache hits are free): 429 with the error body', async () => {
    const s = newService();
    const limited = await startApp(s, memoryRateLimit(2, 60));
    try {
      expect((await get(limited.url, signer.path(`${images.origin}/a.png`))).status).toBe(200);
      expect((await get(limited.url, signer.path(`${images.origin}/a.jpg`))).status).toBe(200);
      const third = await get(limited.url, signer.path(`${images.origin}/a.gif`));
      expect([third.status, third.json()]).toEqual([
        429,
        { success: false, code: 'RATE_LIMITED', message: ERRORS.RATE_LIMITED },
      ]);
      expect((await get(limited.url, signer.path(`${images.origin}/a.png`))).status).toBe(200); // cached
      // unsigned requests are refused before the limit: they cost nothing and fetch nothing
      expect((await get(limited.url, unsigned(`${images.origin}/a.gif`))).status).toBe(403);
    } finally {
      await limited.close();
    }
  });

  it('answers 405 to other methods', async () => {
    const res = await fetch(app.url + signer.path(`${images.origin}/a.png`), { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});
