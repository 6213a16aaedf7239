/**
 * The embedded web edge's static files (services/platform/src/web.ts): the build's precompressed assets sent as they
 * are, and room paths (proto ROOM_PAGE_PATH) answered with room.html, the HTML that preloads the room page's code;
 * nginx's configurations (distributed, images) use the same pattern.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOM_PAGE_PATH } from '@ephemera/proto/client';
import { frontendStatic, INSTALL_FILES } from '../src/web.ts';

const repo = path.resolve(import.meta.dirname, '..', '..', '..');
const script = 'console.log("the app");'.repeat(200);

/** A GET with the given Accept-Encoding; the raw bytes (node:http does not decompress). */
function get(
  url: string,
  acceptEncoding?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('the built frontend as the embedded server sends it', () => {
  let dir = '';
  let server: http.Server;
  let base = '';

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-static-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<html><head></head><body>index</body></html>');
    fs.writeFileSync(
      path.join(dir, 'room.html'),
      '<html><head><link rel="modulepreload" href="/assets/Room.js"></head><body>room</body></html>',
    );
    fs.writeFileSync(path.join(dir, 'assets', 'app.js'), script);
    fs.writeFileSync(path.join(dir, 'assets', 'app.js.br'), brotliCompressSync(script));
    fs.writeFileSync(path.join(dir, 'assets', 'app.js.gz'), gzipSync(script));
    fs.writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    fs.writeFileSync(path.join(dir, 'manifest.webmanifest'), '{"name":"Ephemera"}');
    fs.mkdirSync(path.join(dir, 'icons'));
    fs.writeFileSync(path.join(dir, 'icons', 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const app = express().use(frontendStatic(dir));
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends an asset brotli-compressed, gzip-compressed or plain, as the browser accepts', async () => {
    const br = await get(`${base}/assets/app.js`, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.body.length).toBeLessThan(script.length / 10);
    expect(br.headers['cache-control']).toMatch(/immutable/);
    const gz = await get(`${base}/assets/app.js`, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await get(`${base}/assets/app.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    expect((await get(`${base}/assets/missing.js`, 'br')).status).toBe(404);
  });

  it('answers a room path with room.html and every other page with index.html', async () => {
    for (const p of ['/myroom', '/My-Room', '/join/room/abc', '/join/ws-id', '/workspace/ws-id']) {
      expect((await get(`${base}${p}`)).body.toString(), p).toContain('room');
    }
    for (const p of ['/', '/about', '/dashboard', '/login', '/admin', '/a/b']) {
      expect((await get(`${base}${p}`)).body.toString(), p).toContain('index');
    }
  });

  it('sends the service worker and the manifest to be revalidated on every load, the icons for a day', async () => {
    const worker = await get(`${base}/sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers['content-type']).toMatch(/javascript/);
    expect(worker.headers['cache-control']).toBe('no-cache');
    const manifest = await get(`${base}/manifest.webmanifest`);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    const icon = await get(`${base}/icons/icon-192.png`);
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.headers['cache-control']).toBe(INSTALL_FILES.iconsCache);
  });

  it('nginx sends the worker, the manifest and the icons with the same headers', () => {
    for (const conf of ['deploy/local/nginx.conf.template', 'deploy/docker/nginx/static.conf']) {
      const text = fs.readFileSync(path.join(repo, conf), 'utf8');
      // a location's lines, up to its closing brace on a line of its own
      const block = (start: string) => {
        const from = text.indexOf(start);
        return from < 0 ? '' : text.slice(from, from + text.slice(from).search(/\n\s*\}\n/));
      };
      expect(block('location = /sw.js {'), conf).toContain('add_header Cache-Control no-cache;');
      expect(block('location = /manifest.webmanifest {'), conf).toMatch(
        /default_type application\/manifest\+json;[\s\S]*Cache-Control no-cache;/,
      );
      expect(block('location ^~ /icons/ {'), conf).toContain(`add_header Cache-Control "${INSTALL_FILES.iconsCache}";`);
    }
  });

  it('nginx answers room paths with the same pattern (distributed stack and the web image)', () => {
    for (const conf of ['deploy/local/nginx.conf.template', 'deploy/docker/nginx/static.conf']) {
      expect(fs.readFileSync(path.join(repo, conf), 'utf8'), conf).toContain(`location ~* "${ROOM_PAGE_PATH.source}"`);
    }
  });
});
