import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError } from '@ephemera/proto';
import { serviceClient, closeServiceClients, ServiceUnavailableError } from '../src/service-client.ts';
import { serviceCredential } from '../src/service-credential.ts';

const credential = serviceCredential('test', 'service-client-test-secret-'.repeat(2));

/** A callee with one route per answer the client must tell apart. */
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => {
    body += c;
  });
  req.on('end', () => {
    const send = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(text);
    };
    switch (req.url) {
      case '/prefix/echo':
        send(200, JSON.stringify({ method: req.method, type: req.headers['content-type'], got: JSON.parse(body) }));
        return;
      case '/prefix/forbidden':
        send(403, JSON.stringify({ success: false, code: 'FORBIDDEN', message: 'Only admins can do that' }));
        return;
      case '/prefix/unknown-code':
        send(400, JSON.stringify({ success: false, code: 'NOT_A_CODE', message: 'x' }));
        return;
      case '/prefix/crash':
        send(500, JSON.stringify({ success: false, code: 'INTERNAL', message: 'boom' }));
        return;
      case '/prefix/not-json':
        send(200, '<html>');
        return;
      case '/prefix/slow':
        setTimeout(() => send(200, '{}'), 2_000);
        return;
      default:
        send(404, '{}');
    }
  });
});
let base = '';

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/prefix`;
});
afterAll(async () => {
  await closeServiceClients();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('serviceClient (internal calls over kept-alive connections)', () => {
  it('posts the body as JSON under the base path and returns the answer', async () => {
    const call = serviceClient(base, credential);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call<{ method: string; type: string; got: { i: number } }>('/echo', { i })),
    );
    expect(answers.map((a) => a.got.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(answers[0]).toMatchObject({ method: 'POST', type: 'application/json' });
  });

  it("turns the callee's error body back into the DomainError it threw", async () => {
    const err = await serviceClient(base, credential)('/forbidden', {}).catch((e) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: 'FORBIDDEN', message: 'Only admins can do that', status: 403 });
  });

  it('a 5xx, an unknown error code, a body that is not JSON, a timeout or no callee is "unavailable"', async () => {
    const call = serviceClient(base, credential, 300);
    for (const path of ['/crash', '/unknown-code', '/not-json', '/slow']) {
      await expect(call(path, {}), path).rejects.toBeInstanceOf(ServiceUnavailableError);
    }
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    await expect(serviceClient(`http://127.0.0.1:${port}`, credential)('/x', {})).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
  });
});
