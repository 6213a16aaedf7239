/** Shared by the embedded and distributed route tests: a local page server and the route's expected answers. */
import { expect } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERRORS, LINK_PREVIEW_PATH, LinkPreviewSchema } from '@ephemera/proto';
import { http as call, createRoom } from '../../../../test/helpers/clients.ts';

export interface PageServer { port: number; origin: string; seen: string[]; close(): Promise<void> }

export async function startPageServer(): Promise<PageServer> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/json') { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{}'); return; }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<html><head><title>fallback</title>
      <meta property="og:title" content="Local page"><meta property="og:description" content="Served by the test">
      <meta property="og:image" content="https://cdn.example/cover.png"><meta property="og:site_name" content="Local">
      </head></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port, origin: `http://127.0.0.1:${port}`, seen,
    async close() { server.closeAllConnections(); await new Promise((r) => server.close(r)); },
  };
}

/**
 * The route's contract, asked through `base` (the address a browser uses); the room is created through `roomBase`.
 */
export async function expectLinkPreviewRoute(roomBase: string, base: string, pages: PageServer): Promise<void> {
  const url = `${pages.origin}/og`;
  // Unauthenticated: 401 with the error body, before anything is fetched.
  for (const headers of [{}, { authorization: 'Bearer not-a-member-token-0123456789' }, { authorization: 'Basic dXNlcjpwYXNz' }] as Record<string, string>[]) {
    const res = await call(base, LINK_PREVIEW_PATH, { body: { url }, headers });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, code: 'NOT_AUTHENTICATED', message: ERRORS.NOT_AUTHENTICATED });
  }
  expect(pages.seen).toEqual([]);

  const { userToken } = await createRoom(roomBase);
  const auth = { authorization: `Bearer ${userToken}` };
  // The member's token reaches messaging's read model through the event log: wait for it.
  await expect.poll(async () => (await call(base, LINK_PREVIEW_PATH, { body: { url }, headers: auth })).status, { timeout: 15_000 }).toBe(200);
  const ok = await call(base, LINK_PREVIEW_PATH, { body: { url, workspaceId: 'ignored' }, headers: auth });
  expect(ok.status).toBe(200);
  expect(ok.headers.get('cache-control')).toContain('no-store');
  expect(LinkPreviewSchema.parse(ok.body)).toEqual({
    type: 'other', url, title: 'Local page', description: 'Served by the test', image: 'https://cdn.example/cover.png',
    thumbnail: null, author: null, siteName: 'Local', postId: null, videoId: null,
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
    const res = body === undefined
      ? await fetch(base + LINK_PREVIEW_PATH, { method: 'POST', headers: auth }).then(async (r) => ({ status: r.status, body: await r.json() }))
      : await call(base, LINK_PREVIEW_PATH, { body, headers: auth });
    expect([res.status, res.body], JSON.stringify(body)).toEqual([400, expect.objectContaining({ success: false, code: 'VALIDATION', message })]);
  }

  // A page that cannot be previewed: 422 with the error body.
  const json = await call(base, LINK_PREVIEW_PATH, { body: { url: `${pages.origin}/json` }, headers: auth });
  expect([json.status, json.body]).toEqual([422, { success: false, code: 'LINK_PREVIEW_FAILED', message: 'The link does not point to a web page' }]);
  const metadata = await call(base, LINK_PREVIEW_PATH, { body: { url: 'http://169.254.169.254/latest/meta-data/' }, headers: auth });
  expect([metadata.status, metadata.body]).toEqual([422, {
    success: false, code: 'LINK_PREVIEW_BLOCKED', message: 'Links to local or private network addresses cannot be previewed',
  }]);
}
