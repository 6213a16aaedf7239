/** Shared by the embedded and distributed route tests: a local page server and the route's expected answers. */
import { expect } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERRORS, LINK_PREVIEW_IMAGE_PATH, LINK_PREVIEW_PATH, LinkPreviewSchema } from '@ephemera/proto';
import { http as call, createRoom } from '../../../../test/helpers/clients.ts';

export interface PageServer {
  port: number;
  origin: string;
  seen: string[];
  close(): Promise<void>;
}

/** A 1x1 PNG: the page server's images. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Pages: `/og` (its og:image is `/cover.png` on this server), `/og-img?src=X` (og:image X), `/json`.
 * Images: `/cover.png`, `/other.png` (PNG), `/svg-as-png`, `/html-as-png` (labelled image/png), `/big.png` (6 MB).
 */
export async function startPageServer(): Promise<PageServer> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    const u = new URL(req.url ?? '/', 'http://x');
    if (req.url === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
      return;
    }
    if (u.pathname === '/cover.png' || u.pathname === '/other.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
      return;
    }
    if (u.pathname === '/svg-as-png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      return;
    }
    if (u.pathname === '/html-as-png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end('<html><script>alert(1)</script></html>');
      return;
    }
    if (u.pathname === '/big.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<html><head><title>fallback</title>
      <meta property="og:title" content="Local page"><meta property="og:description" content="Served by the test">
      <meta property="og:image" content="${attr(u.pathname === '/og-img' ? (u.searchParams.get('src') ?? '') : '/cover.png')}"><meta property="og:site_name" content="Local">
      </head></html>`);
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

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** What a preview carries for an image address: the signed same-origin path of the image proxy. */
export const proxiedImage = (address: string) =>
  expect.stringMatching(
    new RegExp(`^${escapeRe(LINK_PREVIEW_IMAGE_PATH)}\\?u=${escapeRe(encodeURIComponent(address))}&s=[\\w-]{43}$`),
  );

/**
 * The route's contract, asked through `base` (the address a browser uses); the room is created through `roomBase`.
 */
export async function expectLinkPreviewRoute(roomBase: string, base: string, pages: PageServer): Promise<void> {
  const url = `${pages.origin}/og`;
  // Unauthenticated: 401 with the error body, before anything is fetched.
  for (const headers of [
    {},
    { authorization: 'Bearer not-a-member-token-0123456789' },
    { authorization: 'Basic dXNlcjpwYXNz' },
  ] as Record<string, string>[]) {
    const res = await call(base, LINK_PREVIEW_PATH, { body: { url }, headers });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, code: 'NOT_AUTHENTICATED', message: ERRORS.NOT_AUTHENTICATED });
  }
  expect(pages.seen).toEqual([]);

  const { userToken } = await createRoom(roomBase);
  const auth = { authorization: `Bearer ${userToken}` };
  // The member's token reaches messaging's read model through the event log: wait for it.
  await expect
    .poll(async () => (await call(base, LINK_PREVIEW_PATH, { body: { url }, headers: auth })).status, {
      timeout: 15_000,
    })
    .toBe(200);
  const ok = await call(base, LINK_PREVIEW_PATH, { body: { url, workspaceId: 'ignored' }, headers: auth });
  expect(ok.status).toBe(200);
  expect(ok.headers.get('cache-control')).toContain('no-store');
  expect(LinkPreviewSchema.parse(ok.body)).toEqual({
    type: 'other',
    url,
    title: 'Local page',
    description: 'Served by the test',
    image: proxiedImage(`${pages.origin}/cover.png`),
    thumbnail: null,
    author: null,
    siteName: 'Local',
    postId: null,
    videoId: null,
  });
  expect(pages.seen.filter((p) => p === '/og')).toEqual(['/og']); // later answers came from the cache

  // Bad input: 400 with a clear message, never a 500.
  const bad: [unknown, string][] = [
    [undefined, 'Send a JSON body with the link: { "url": "https://..." }'],
    [{}, 'Enter a link to preview'],
    [{ url: '' }, 'Enter a link to preview'],
    [{ url: 42 }, 'The link must be text'],
    [{ url: 'not a link' }, 'This is not a valid link'],
    [{ url: `https://example.com/${'a'.repeat(2100)}` }, 'The link is too long (2048 characters max)'],
    [{ url: 'file:///etc/passwd' }, 'Only http and https links can be previewed'],
    [{ url: 'javascript:alert(1)' }, 'Only http and https links can be previewed'],
    [{ url: 'gopher://127.0.0.1:70/_' }, 'Only http and https links can be previewed'],
    ['{"url": ', 'Malformed JSON body'],
  ];
  for (const [body, message] of bad) {
    const res =
      body === undefined
        ? await fetch(base + LINK_PREVIEW_PATH, { method: 'POST', headers: auth }).then(async (r) => ({
            status: r.status,
            body: await r.json(),
          }))
        : await call(base, LINK_PREVIEW_PATH, { body, headers: auth });
    expect([res.status, res.body], JSON.stringify(body)).toEqual([
      400,
      expect.objectContaining({ success: false, code: 'VALIDATION', message }),
    ]);
  }

  // A page that cannot be previewed: 422 with the error body.
  const json = await call(base, LINK_PREVIEW_PATH, { body: { url: `${pages.origin}/json` }, headers: auth });
  expect([json.status, json.body]).toEqual([
    422,
    { success: false, code: 'LINK_PREVIEW_FAILED', message: 'The link does not point to a web page' },
  ]);
  const metadata = await call(base, LINK_PREVIEW_PATH, {
    body: { url: 'http://169.254.169.254/latest/meta-data/' },
    headers: auth,
  });
  expect([metadata.status, metadata.body]).toEqual([
    422,
    {
      success: false,
      code: 'LINK_PREVIEW_BLOCKED',
      message: 'Links to local or private network addresses cannot be previewed',
    },
  ]);
}

/**
 * GET /api/link-preview/image through `base` (the address a browser uses), with no credentials, as an <img> asks:
 * the preview's image is served with the image headers; unsigned and tampered addresses are 403 and fetch
 * nothing; SVG/HTML labelled as images, a loopback address off the allowlist, an oversized image are refused.
 */
export async function expectImageProxyRoute(
  roomBase: string,
  base: string,
  pages: PageServer,
  internal?: { port: number; seen: () => number },
): Promise<void> {
  const { userToken } = await createRoom(roomBase);
  const auth = { authorization: `Bearer ${userToken}` };
  const previewOf = async (url: string) => {
    let body: { image: string | null } | null = null;
    await expect
      .poll(
        async () => {
          const res = await call(base, LINK_PREVIEW_PATH, { body: { url }, headers: auth });
          body = res.body;
          return res.status;
        },
        { timeout: 15_000 },
      )
      .toBe(200);
    return body! as { image: string };
  };
  const get = async (path: string) => {
    const res = await fetch(base + path);
    const bytes = Buffer.from(await res.arrayBuffer());
    const json = () => JSON.parse(bytes.toString('utf8'));
    return { status: res.status, headers: res.headers, bytes, json };
  };

  const { image } = await previewOf(`${pages.origin}/og?img=1`);
  expect(image).toEqual(proxiedImage(`${pages.origin}/cover.png`));
  for (let i = 0; i < 2; i++) {
    const res = await get(image);
    expect(res.status).toBe(200);
    expect(res.bytes.equals(PNG)).toBe(true);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(res.headers.get('content-disposition')).toBe('inline');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
  }
  expect(pages.seen.filter((p) => p === '/cover.png')).toEqual(['/cover.png']); // the second answer came from the cache

  // The signature is the authorization: another address with it, no signature, a changed one: 403, nothing fetched.
  const s = new URLSearchParams(image.split('?')[1]).get('s')!;
  const other = `${pages.origin}/other.png`;
  for (const path of [
    `${LINK_PREVIEW_IMAGE_PATH}?u=${encodeURIComponent(other)}&s=${s}`,
    `${LINK_PREVIEW_IMAGE_PATH}?u=${encodeURIComponent(other)}`,
    `${LINK_PREVIEW_IMAGE_PATH}?u=${encodeURIComponent(`${pages.origin}/cover.png`)}&s=${s.slice(1)}x`,
    LINK_PREVIEW_IMAGE_PATH,
  ]) {
    const res = await get(path);
    expect([res.status, res.json()], path).toEqual([
      403,
      { success: false, code: 'FORBIDDEN', message: 'This image address was not issued by this server' },
    ]);
  }
  expect(pages.seen).not.toContain('/other.png');

  // Refused from the bytes, the address or the size: 422 with the error body.
  const refusals: [string, string, string][] = [
    ['/svg-as-png', 'LINK_PREVIEW_FAILED', 'Only JPEG, PNG, GIF and WebP images are served'],
    ['/html-as-png', 'LINK_PREVIEW_FAILED', 'Only JPEG, PNG, GIF and WebP images are served'],
    ['/big.png', 'LINK_PREVIEW_FAILED', 'The image is too large (5 MB max)'],
    [
      'http://127.0.0.1/secret.png',
      'LINK_PREVIEW_BLOCKED',
      'Images on local or private network addresses are not served',
    ],
    [
      'http://169.254.169.254/latest/meta-data/x.png',
      'LINK_PREVIEW_BLOCKED',
      'Images on local or private network addresses are not served',
    ],
    ...(internal
      ? [
          [
            `http://127.0.0.1:${internal.port}/secret.png`,
            'LINK_PREVIEW_BLOCKED',
            'Only images on the standard web ports (80 and 443) are served',
          ] as [string, string, string],
        ]
      : []),
  ];
  for (const [src, code, message] of refusals) {
    const preview = await previewOf(`${pages.origin}/og-img?src=${encodeURIComponent(src)}`);
    expect(preview.image, src).toEqual(proxiedImage(new URL(src, pages.origin).href));
    const res = await get(preview.image);
    expect([res.status, res.json()], src).toEqual([422, { success: false, code, message }]);
  }
  if (internal) expect(internal.seen()).toBe(0);
}
