/**
 * The websocket engine port's contract (services/gateway/src/engine/index.ts): what the gateway needs of the HTTP
 * server Socket.IO runs on, checked the same way on every engine that loads here. Socket.IO over websocket and
 * long-polling (acks, room broadcasts, the upgrade), the health routes, and the HTTP forwarder: paths, the client's
 * address and host, hop-by-hop and handoff headers, compressed answers, requests HTTP does not allow, internal
 * paths refused, the body cap, an upstream that is down, a client that leaves. The upload body handoff has its own suite (../body-handoff.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Server } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import type { RunningEngine } from '../../src/engine/index.ts';
import { ENGINES } from './engines.ts';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  closedEarly?: boolean;
}

describe.each(ENGINES)('gateway engine $name', ({ engine }) => {
  if (!engine) {
    it.skip('uWS does not load here', () => {});
    return;
  }
  let io: Server;
  let running: RunningEngine;
  let plain: RunningEngine; // no upstream
  let upstream: http.Server;
  let base: string;
  let ready = true;
  const seen: Seen[] = [];
  const clients: ClientSocket[] = [];

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      const s: Seen = { method: req.method!, url: req.url!, headers: req.headers, body: '' };
      seen.push(s);
      req.on('data', (c: Buffer) => {
        s.body += c.toString();
      });
      req.on('end', () => {
        if (req.url === '/api/compressed') {
          res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
          res.end(gzipSync('compressed answer'));
          return;
        }
        if (req.url === '/api/slow') {
          res.on('close', () => {
            if (!res.writableFinished) s.closedEarly = true;
          });
          setTimeout(() => res.end('late'), 3_000);
          return;
        }
        res.writeHead(req.url!.startsWith('/api/teapot') ? 418 : 200, {
          'content-type': 'text/plain',
          'set-cookie': ['a=1; Path=/', 'b=2; Path=/'],
          'x-upstream': 'yes',
        });
        res.end(`${req.method} ${req.url} ${s.body.length}`);
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    io = new Server({ serveClient: false });
    io.on('connection', (socket) => {
      socket.on('echo', (v: unknown, ack: (v: unknown) => void) => ack(v));
      socket.on('join', (room: string, ack: () => void) => {
        void socket.join(room);
        ack();
      });
      socket.on('shout', (room: string, text: string) => {
        io.to(room).emit('heard', text);
      });
    });
    running = await engine.start({
      host: '127.0.0.1',
      port: 0,
      io,
      ready: async () => ready,
      upstream: `http://127.0.0.1:${(upstream.address() as net.AddressInfo).port}`,
      addressOf: (peer) => `client-of-${peer}`,
    });
    plain = await engine.start({ host: '127.0.0.1', port: 0, ready: async () => true, addressOf: (peer) => peer });
    base = `http://127.0.0.1:${running.port}`;
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await running.close();
    await plain.close();
    upstream.closeAllConnections();
    await new Promise((r) => upstream.close(r));
  });

  const client = async (transports: ('polling' | 'websocket')[]) => {
    const c = connect(base, { transports, reconnection: false, forceNew: true });
    clients.push(c);
    await new Promise<void>((resolve, reject) => {
      c.once('connect', () => resolve());
      c.once('connect_error', reject);
    });
    return c;
  };
  const request = (
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
  ) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
      // node:http, not fetch: the path goes out exactly as written (fetch would resolve dot segments first)
      const req = http.request(
        base + path,
        { method: init.method ?? 'GET', headers: init.headers, agent: false },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.end(init.body);
    });

  it('serves Socket.IO on websocket and long-polling: acks, room broadcasts, the upgrade', async () => {
    const ws = await client(['websocket']);
    const polling = await client(['polling']);
    const upgrading = await client(['polling', 'websocket']);
    expect(await ws.emitWithAck('echo', { n: 1 })).toEqual({ n: 1 });
    expect(await polling.emitWithAck('echo', 'π')).toBe('π');
    await expect.poll(() => upgrading.io.engine.transport.name).toBe('websocket');
    for (const c of [ws, polling, upgrading]) await c.emitWithAck('join', 'r1');
    const heard = [ws, polling, upgrading].map((c) => new Promise<string>((r) => c.once('heard', r)));
    ws.emit('shout', 'r1', 'hello');
    expect(await Promise.all(heard)).toEqual(['hello', 'hello', 'hello']);
  });

  it('answers the health routes itself', async () => {
    expect(await request('/healthz')).toMatchObject({ status: 200, text: '{"ok":true}' });
    ready = false;
    expect(await request('/readyz')).toMatchObject({ status: 503, text: '{"ok":false}' });
    ready = true;
    expect(await request('/readyz')).toMatchObject({ status: 200, text: '{"ok":true}' });
    expect(seen.filter((s) => s.url.endsWith('z'))).toEqual([]);
  });

  it("forwards other requests as sent, with the client's address and host, and the answer as given", async () => {
    const answer = await request('/api/teapot?x=1&y=%2F', {
      headers: {
        'x-ephemera-body-handoff': 'forged',
        'x-forwarded-for': '6.6.6.6',
        'x-custom': 'kept',
        host: 'chat.example.test',
      },
    });
    expect(answer.status).toBe(418);
    expect(answer.text).toBe('GET /api/teapot?x=1&y=%2F 0');
    expect(answer.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(answer.headers['x-upstream']).toBe('yes');
    const s = seen.at(-1)!;
    expect(s.headers['x-forwarded-for']).toMatch(/^client-of-(::ffff:)?127\.0\.0\.1$/);
    expect(s.headers['x-custom']).toBe('kept');
    // an ingress behind the gateways (the layer-4 path) routes by the host the browser asked for (docs/deployment.md)
    expect(s.headers.host).toBe('chat.example.test');
    expect(s.headers['x-ephemera-body-handoff']).toBeUndefined();
    const json = JSON.stringify({ name: 'ü'.repeat(1000) });
    const posted = await request('/api/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: json,
    });
    expect(posted.text).toBe(
      `POST /api/rooms ${Buffer.byteLength(json)}`.replace(String(Buffer.byteLength(json)), String(json.length)),
    );
    expect(seen.at(-1)!.body).toBe(json);
  });

  it("passes a compressed answer on as the upstream encoded it, for the client's own decoding", async () => {
    const { encoding, bytes } = await new Promise<{ encoding?: string; bytes: Buffer }>((resolve, reject) => {
      const req = http.get(
        base + '/api/compressed',
        { headers: { 'accept-encoding': 'gzip' }, agent: false },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(parts) }));
        },
      );
      req.on('error', reject);
    });
    expect(encoding).toBe('gzip');
    expect(gunzipSync(bytes).toString()).toBe('compressed answer');
    expect(seen.at(-1)!.headers['accept-encoding']).toBe('gzip');
  });

  it('refuses a request HTTP does not allow with 400, before the upstream sees it, and keeps serving', async () => {
    const before = seen.length;
    const raw = (head: string) =>
      new Promise<string>((resolve) => {
        const socket = net.connect(running.port, '127.0.0.1', () => socket.write(`${head}\r\n\r\n`));
        let text = '';
        socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
        socket.on('close', () => resolve(text));
        socket.on('error', () => resolve(text));
        socket.setTimeout(2_000, () => socket.destroy());
      });
    // a DEL in a header value, on a buffered route and on a streamed file route; a method that is not a token
    for (const head of [
      'GET /api/rooms HTTP/1.1\r\nHost: a\r\nX-Odd: a\x7fb',
      'GET /api/workspaces/w/files/f HTTP/1.1\r\nHost: a\r\nX-Odd: a\x7fb',
      'G{T /api/rooms HTTP/1.1\r\nHost: a',
    ])
      expect(await raw(head), head).toMatch(/^HTTP\/1\.1 400 /);
    expect(seen.length).toBe(before);
    expect((await request('/api/teapot')).status).toBe(418);
  });

  it('refuses internal paths however they are spelled, before the upstream sees them', async () => {
    const before = seen.length;
    for (const path of [
      '/internal/room-keys/r',
      '/./internal/room-keys/r',
      '/%2e/internal/room-keys/r',
      '/api/../internal/room-keys/r',
      '/api/%2E%2E/internal/x',
      '//internal/x',
      '/INTERNAL/x',
    ]) {
      expect((await request(path)).status, path).toBe(404);
    }
    expect(seen.length).toBe(before);
  });

  it('caps bodies outside the file routes, answers 502 for an upstream that is down, 404 without one', async () => {
    expect((await request('/api/rooms', { method: 'POST', body: Buffer.alloc(1024 * 1024 + 1) })).status).toBe(413);
    // the same without a declared length: counted as it streams (chunked), refused with 413, not a reset
    const chunked = await new Promise<number | string>((resolve) => {
      const req = http.request(base + '/api/rooms', { method: 'POST', agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', (err) => resolve(err.message));
      // past the cap, then a pause before the rest: the refusal must wait for the body, not reset the connection
      for (let i = 0; i < 5; i++) req.write(Buffer.alloc(256 * 1024));
      setTimeout(() => req.end(Buffer.alloc(256 * 1024)), 200);
    });
    expect(chunked).toBe(413);
    const down = await engine.start({
      host: '127.0.0.1',
      port: 0,
      ready: async () => true,
      addressOf: (p) => p,
      upstream: 'http://127.0.0.1:9',
    });
    try {
      expect(
        await new Promise<number>((resolve) =>
          http.get(`http://127.0.0.1:${down.port}/api/x`, (res) => {
            res.resume();
            resolve(res.statusCode!);
          }),
        ),
      ).toBe(502);
    } finally {
      await down.close();
    }
    expect(
      await new Promise<number>((resolve) =>
        http.get(`http://127.0.0.1:${plain.port}/api/x`, (res) => {
          res.resume();
          resolve(res.statusCode!);
        }),
      ),
    ).toBe(404);
  });

  it('ends the upstream request when its client leaves', async () => {
    const req = http.get(base + '/api/slow', { agent: false });
    req.on('error', () => {});
    await expect.poll(() => seen.some((s) => s.url === '/api/slow')).toBe(true);
    req.destroy();
    await expect.poll(() => seen.find((s) => s.url === '/api/slow')!.closedEarly, { timeout: 2_500 }).toBe(true);
  });
});
