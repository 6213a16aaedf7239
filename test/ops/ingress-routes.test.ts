/**
 * The local ingress (deploy/local/nginx.conf.template under the real nginx, as `npm run distributed:up` runs it)
 * sends each API path to its service, with stand-in upstreams that name themselves: the contact form's one path and
 * the account and payment prefixes to billing, nothing else; and it serves the public pages (proto INDEXED_PAGES)
 * without the `X-Robots-Tag: noindex` every other page (room pages) carries.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_PATH, INDEXED_PAGES } from '@ephemera/proto/client';
import { startIngress } from '../../deploy/local/ingress.ts';
import { freePort } from '../../deploy/local/infra.ts';

describe('local ingress routes (nginx)', () => {
  const servers: http.Server[] = [];
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingress-routes-'));
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ingress-dist-'));
  let ingress: Awaited<ReturnType<typeof startIngress>>;
  /** an upstream that answers its own name */
  const upstream = (name: string) => new Promise<number>((resolve) => {
    const s = http.createServer((_req, res) => { res.end(name); });
    servers.push(s);
    s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port));
  });

  beforeAll(async () => {
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>ephemera</title>');
    const [room, messaging, billing, gateway] = await Promise.all([upstream('room'), upstream('messaging'), upstream('billing'), upstream('gateway')]);
    ingress = await startIngress({ runDir, port: await freePort(), gateway1Port: gateway, gateway2Port: gateway, roomPort: room, messagingPort: messaging, billingPort: billing, frontendDist: dist });
  });
  afterAll(async () => {
    await ingress?.stop();
    for (const s of servers) s.close();
    fs.rmSync(runDir, { recursive: true, force: true });
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends /api/contact (that path only), /api/auth/ and /api/payments/ to billing; the rest of /api to room', async () => {
    const serviceOf = async (method: string, p: string) => {
      const res = await fetch(ingress.url + p, { method, body: method === 'POST' ? '{}' : undefined, headers: { 'content-type': 'application/json' } });
      expect(res.headers.get('cache-control'), p).toBe('no-store');
      return res.text();
    };
    expect(await serviceOf('POST', CONTACT_PATH)).toBe('billing');
    expect(await serviceOf('POST', `${CONTACT_PATH}?lang=en`)).toBe('billing');
    expect(await serviceOf('POST', '/api/contacts')).toBe('room');
    expect(await serviceOf('GET', `${CONTACT_PATH}/x`)).toBe('room');
    expect(await serviceOf('POST', '/api/auth/request-code')).toBe('billing');
    expect(await serviceOf('POST', '/api/payments/create-checkout-session')).toBe('billing');
    expect(await serviceOf('POST', '/api/link-preview/fetch')).toBe('messaging');
    expect(await serviceOf('GET', '/api/workspaces/x/info')).toBe('room');
  });

  it('the landing and static pages are indexable; any other page answers X-Robots-Tag: noindex', async () => {
    expect(INDEXED_PAGES).toEqual(['/', '/about', '/features', '/privacy', '/terms', '/contact']);
    for (const p of INDEXED_PAGES) {
      const res = await fetch(ingress.url + p);
      expect(res.status, p).toBe(200);
      expect(await res.text(), p).toContain('<title>ephemera</title>');
      expect(res.headers.get('x-robots-tag'), p).toBeNull();
      expect(res.headers.get('content-security-policy'), p).toContain("frame-ancestors 'none'");
    }
    for (const p of ['/some-room', '/about-us', '/contact/x', '/Terms']) {
      expect((await fetch(ingress.url + p)).headers.get('x-robots-tag'), p).toBe('noindex');
    }
  });
});
