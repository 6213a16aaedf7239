/**
 * The embedded proxy's body handoff (engine/uws-proxy.ts with uws-body.ts, engine/node-proxy.ts,
 * platform/body-handoff.ts), on each engine: an upload's body goes from the gateway's HTTP server to the upstream
 * route in-process, only its headers over loopback. The upstream here is a stand-in for
 * the file route (take the body by the header's id, read it or refuse early); the real route runs in the files
 * suite (test/suites/files.suite.ts, embedded).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import http from 'node:http';
import type net from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { BodyHandoff, BODY_HANDOFF_HEADER } from '@ephemera/platform';
import type { RunningEngine } from '../src/engine/index.ts';
import { ENGINES } from './engine/engines.ts';

const MB = 1024 * 1024;
const UPLOAD = '/api/workspaces/w1/files';

/** Remembers every body the proxy hands over, so a test can see what became of one nobody took. */
class WatchedHandoff extends BodyHandoff {
  readonly bodies: Readable[] = [];
  override put(body: Readable): string {
    this.bodies.push(body);
    return super.put(body);
  }
}

interface Seen {
  header?: string;
  contentLength?: string;
  bytes?: number;
  sha?: string;
  bufferedWhileWaiting?: number;
  failed?: boolean;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const until = async (check: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return check();
};

describe.each(ENGINES)('embedded proxy on $name: upload bodies handed over in-process', ({ engine }) => {
  const handoff = new WatchedHandoff();
  const seen: Seen[] = [];
  let upstream: http.Server;
  let proxy: RunningEngine;
  let base: string;
  if (!engine) {
    it.skip('uWS does not load here', () => {});
    return;
  }

  beforeAll(async () => {
    // x-test: refuse (answer 401 at once, body untaken), take-refuse (take it, answer 401 unread), slow (take it,
    // wait before reading), ignore (404, untaken); otherwise the body is read whole and described.
    upstream = http.createServer((req, res) => {
      const s: Seen = {
        header: req.headers[BODY_HANDOFF_HEADER] as string | undefined,
        contentLength: req.headers['content-length'],
      };
      seen.push(s);
      const mode = req.headers['x-test'];
      if (mode === 'refuse') {
        res.writeHead(401).end('no');
        return;
      }
      if (mode === 'ignore') {
        res.writeHead(404).end('not here');
        return;
      }
      const body = handoff.take(s.header) ?? req;
      if (mode === 'take-refuse') {
        res.writeHead(401).end('no');
        return;
      }
      void (async () => {
        if (mode === 'slow') {
          await new Promise((r) => setTimeout(r, 300));
          s.bufferedWhileWaiting = body.readableLength;
        }
        const chunks: Buffer[] = [];
        try {
          for await (const c of body) chunks.push(c as Buffer);
        } catch {
          s.failed = true;
          res.destroy();
          return;
        }
        const all = Buffer.concat(chunks);
        s.bytes = all.length;
        s.sha = sha(all);
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes: all.length }));
      })();
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    proxy = await engine.start({
      host: '127.0.0.1',
      port: 0,
      ready: async () => true,
      addressOf: (peer) => peer,
      handoff,
      upstream: `http://127.0.0.1:${(upstream.address() as net.AddressInfo).port}`,
    });
    base = `http://127.0.0.1:${proxy.port}`;
  });
  afterAll(async () => {
    await proxy.close();
    upstream.closeAllConnections();
    await new Promise((r) => upstream.close(r));
  });

  /** Streams `body` (chunked, with backpressure); the answer, or the request's error once it is cut off. */
  function send(
    method: string,
    path: string,
    body: Buffer | null,
    headers: Record<string, string> = {},
    cutAfter?: number,
    agent: http.Agent | false = false,
  ) {
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(base + path, { method, headers, agent }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      if (!body) {
        req.end();
        return;
      }
      const slices = Array.from({ length: Math.ceil(body.length / (256 * 1024)) }, (_, i) =>
        body.subarray(i * 256 * 1024, (i + 1) * 256 * 1024),
      );
      if (cutAfter === undefined) {
        Readable.from(slices).pipe(req);
        return;
      }
      req.write(body.subarray(0, cutAfter), () => setTimeout(() => req.destroy(), 100));
    });
  }

  it('hands the body over whole; only the headers cross the loopback hop', async () => {
    const body = randomBytes(8 * MB);
    const answer = await send('POST', UPLOAD, body);
    expect(answer.status).toBe(201);
    const s = seen.at(-1)!;
    expect(s.header).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(s.contentLength).toBe('0');
    expect(s.bytes).toBe(body.length);
    expect(s.sha).toBe(sha(body));
    expect(handoff.size).toBe(0);
  });

  it('holds back the client while the route is behind (backpressure), then delivers every byte', async () => {
    const body = randomBytes(24 * MB);
    const answer = await send('POST', UPLOAD, body, { 'x-test': 'slow' });
    expect(answer.status).toBe(201);
    const s = seen.at(-1)!;
    // not the 24 MB the client had to send: a megabyte past the high-water mark plus what the server had read before
    // it paused (uWS 20.57 hands over up to about 3 MB of its receive buffers after a pause)
    expect(s.bufferedWhileWaiting).toBeLessThanOrEqual(6 * MB);
    expect(s.sha).toBe(sha(body));
  });

  it('leaves a kept-alive connection reading: the next request on it goes through', async () => {
    // The body's last bytes come in the same read as the chunk that filled the buffer (the route is not reading
    // yet): uWS has been paused by then, and a socket left paused after the answer stalls the connection's next request.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const body = randomBytes(1100 * 1024);
      const answer = await new Promise<number>((resolve, reject) => {
        const req = http.request(base + UPLOAD, { method: 'POST', headers: { 'x-test': 'slow' }, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.write(body.subarray(0, 900 * 1024));
        setTimeout(() => {
          req.write(body.subarray(900 * 1024));
          req.end();
        }, 100);
      });
      expect(answer).toBe(201);
      expect(seen.at(-1)!.sha).toBe(sha(body));
      const next = randomBytes(MB);
      expect((await send('POST', UPLOAD, next, {}, undefined, agent)).status).toBe(201);
      expect(seen.at(-1)!.sha).toBe(sha(next));
    } finally {
      agent.destroy();
    }
  }, 15_000);

  it("ignores a handoff header the client sends: the route gets the proxy's id and the client's own body", async () => {
    const forged = 'AAAAAAAAAAAAAAAAAAAAAA';
    const body = randomBytes(MB);
    const answer = await send('POST', UPLOAD, body, { [BODY_HANDOFF_HEADER]: forged });
    expect(answer.status).toBe(201);
    expect(seen.at(-1)!.header).not.toBe(forged);
    expect(seen.at(-1)!.sha).toBe(sha(body));
    // a route that takes no handed body never sees the header at all
    await send('GET', `${UPLOAD}/f1`, null, { [BODY_HANDOFF_HEADER]: forged });
    expect(seen.at(-1)!.header).toBeUndefined();
    expect(handoff.take(forged)).toBeUndefined();
  });

  it('an early refusal answers at once and drops the rest of the body, taken or not', async () => {
    for (const mode of ['refuse', 'take-refuse']) {
      const before = handoff.bodies.length;
      const started = Date.now();
      const answer = await send('POST', UPLOAD, Buffer.alloc(64 * MB), { 'x-test': mode }).catch((err: Error) => ({
        status: -1,
        text: err.message,
      }));
      expect(answer.status, mode).toBe(401);
      expect(Date.now() - started, mode).toBeLessThan(10_000);
      expect(handoff.bodies.length).toBe(before + 1);
      expect(await until(() => handoff.bodies.at(-1)!.destroyed), mode).toBe(true);
      expect(handoff.size).toBe(0);
    }
    // the proxy still serves the next upload
    expect((await send('POST', UPLOAD, randomBytes(MB))).status).toBe(201);
  });

  it('a client that goes away mid-upload fails the body the route is reading', async () => {
    const count = seen.length;
    await send('POST', UPLOAD, randomBytes(16 * MB), {}, 2 * MB).catch(() => {});
    expect(await until(() => seen.length > count && seen.at(-1)!.failed === true)).toBe(true);
    expect(seen.at(-1)!.bytes).toBeUndefined();
    expect(handoff.size).toBe(0);
  });

  it('a body the route never takes is dropped when the answer comes', async () => {
    const answer = await send('POST', UPLOAD, randomBytes(4 * MB), { 'x-test': 'ignore' }).catch((err: Error) => ({
      status: -1,
      text: err.message,
    }));
    expect(answer.status).toBe(404);
    expect(await until(() => handoff.bodies.at(-1)!.destroyed)).toBe(true);
    expect(handoff.size).toBe(0);
  });
});

describe('BodyHandoff', () => {
  it('gives a body once, to its id only', () => {
    const handoff = new BodyHandoff();
    const body = Readable.from([Buffer.from('x')]);
    const id = handoff.put(body);
    expect(handoff.take('someone-else')).toBeUndefined();
    expect(handoff.take(undefined)).toBeUndefined();
    expect(handoff.take(id)).toBe(body);
    expect(handoff.take(id)).toBeUndefined();
    expect(handoff.size).toBe(0);
  });

  it('drops a body nobody claims within its time', async () => {
    const handoff = new BodyHandoff(50);
    const body = new Readable({ read() {} });
    const id = handoff.put(body);
    await new Promise((r) => setTimeout(r, 120));
    expect(body.destroyed).toBe(true);
    expect(handoff.take(id)).toBeUndefined();
    expect(handoff.size).toBe(0);
  });

  it('forgets a body that ends its life before it is taken', async () => {
    const handoff = new BodyHandoff();
    const body = new Readable({ read() {} });
    handoff.put(body);
    body.destroy(new Error('client gone'));
    body.on('error', () => {});
    await new Promise((r) => setImmediate(r));
    expect(handoff.size).toBe(0);
  });
});
