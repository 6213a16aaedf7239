/**
 * The local ingress (deploy/local/nginx.conf.template under the real nginx, as `npm run distributed:up` runs it)
 * sends each API path to its service, with stand-in upstreams that name themselves: the contact form's one path and
 * the account and payment prefixes to billing, nothing else; /api/admin/ and the maintenance banner's one path to
 * admin-analytics, with a large body only for a backup import; and it serves the public pages (proto INDEXED_PAGES)
 * without the `X-Robots-Tag: noindex` every other page (room pages) carries.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_PATH, INDEXED_PAGES } from '@ephemera/proto/client';
import { ADMIN_API } from '@ephemera/proto';
import { startIngress } from '../../deploy/local/ingress.ts';
import { freePort } from '../../deploy/local/infra.ts';

describe('local ingress routes (nginx)', () => {
  const servers: http.Server[] = [];
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingress-routes-'));
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ingress-dist-'));
  let ingress: Awaited<ReturnType<typeof startIngress>>;
  /** an upstream that answers its own name */
  const upstream = (name: string) =>
    new Promise<number>((resolve) => {
      // the body is read to the end, so the answer says how much of it arrived
      const s = http.createServer((req, res) => {
        let n = 0;
        req.on('data', (c: Buffer) => {
          n += c.length;
        });
        req.on('end', () => res.end(req.method === 'POST' && n > 2 ? `${name} ${n}` : name));
      });
      servers.push(s);
      s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port));
    });

  beforeAll(async () => {
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>ephemera</title>');
    const [room, messaging, billing, admin, gateway] = await Promise.all([
      upstream('room'),
      upstream('messaging'),
      upstream('billing'),
      upstream('admin'),
      upstream('gateway'),
    ]);
    ingress = await startIngress({
      runDir,
      port: await freePort(),
      gateway1Port: gateway,
      gateway2Port: gateway,
      roomPort: room,
      messagingPort: messaging,
      billingPort: billing,
      adminPort: admin,
      frontendDist: dist,
    });
  });
  afterAll(async () => {
    await ingress?.stop();
    for (const s of servers) s.close();
    fs.rmSync(runDir, { recursive: true, force: true });
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends /api/contact (that path only), /api/auth/ and /api/payments/ to billing; the rest of /api to room', async () => {
    const serviceOf = async (method: string, p: string) => {
      const res = await fetch(ingress.url + p, {
        method,
        body: method === 'POST' ? '{}' : undefined,
        headers: { 'content-type': 'application/json' },
      });
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

  it('sends /api/admin/ and /api/maintenance (that path only) to admin-analytics, with the security headers', async () => {
    const serviceOf = async (method: string, p: string) => {
      const res = await fetch(ingress.url + p, {
        method,
        body: method === 'POST' ? '{}' : undefined,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.headers.get('cache-control'), p).toBe('no-store');
      expect(res.headers.get('content-security-policy'), p).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), p).toBe('DENY');
      return res.text();
    };
    expect(await serviceOf('POST', ADMIN_API.pageview)).toBe('admin');
    expect(await serviceOf('GET', ADMIN_API.dashboard)).toBe('admin');
    expect(await serviceOf('GET', ADMIN_API.users)).toBe('admin');
    expect(await serviceOf('POST', ADMIN_API.backupImport)).toBe('admin');
    expect(await serviceOf('GET', ADMIN_API.maintenanceStatus)).toBe('admin');
    expect(await serviceOf('GET', `${ADMIN_API.maintenanceStatus}?t=1`)).toBe('admin');
    expect(await serviceOf('GET', `${ADMIN_API.maintenanceStatus}/x`)).toBe('room');
    expect(await serviceOf('GET', '/api/administrator')).toBe('room');
  });

  it('passes a backup file of several MB to the import route only; every other admin route keeps the 1 MB cap', async () => {
    const body = Buffer.alloc(5 * 1024 * 1024, 'x');
    const post = (p: string) =>
      fetch(ingress.url + p, { method: 'POST', body, headers: { 'content-type': 'application/octet-stream' } });
    const imported = await post(ADMIN_API.backupImport);
    expect(imported.status).toBe(200);
    expect(await imported.text()).toBe(`admin ${body.length}`);
    expect((await post(ADMIN_API.maintenance)).status).toBe(413);
    expect((await post(ADMIN_API.pageview)).status).toBe(413);
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
