/**
 * The service boundary's two rules in isolation (service-credential.ts, internal-path.ts): a signature holds only
 * for its secret, caller, expiry, method, path and body; every spelling of an internal path is recognized and
 * nothing else is; a forwarder sends exactly the path it checked. And what signing and verifying cost per call.
 */
import { describe, expect, it } from 'vitest';
import {
  canonicalPath,
  forwardablePath,
  isInternalPath,
  serviceCredential,
  signServiceRequest,
  verifyServiceRequest,
  SERVICE_CREDENTIAL_TTL_SECONDS,
} from '../src/index.ts';

const credential = serviceCredential('gateway', 's'.repeat(48));
const body = JSON.stringify({
  actor: { workspaceId: 'w'.repeat(16), userId: 'u'.repeat(16), username: 'alice' },
  input: { text: 'hello' },
});

describe('service credential', () => {
  it('verifies what was signed, and nothing else', () => {
    const header = signServiceRequest(credential, 'POST', '/internal/send-message', body);
    expect(verifyServiceRequest(credential.secret, header, 'POST', '/internal/send-message', body)).toEqual({
      ok: true,
      caller: 'gateway',
    });
    expect(
      verifyServiceRequest(credential.secret, header, 'POST', '/internal/send-message', Buffer.from(body)),
    ).toMatchObject({ ok: true });
    const other = body.replace('alice', 'bob');
    expect(verifyServiceRequest(credential.secret, header, 'POST', '/internal/send-message', other)).toEqual({
      ok: false,
      reason: 'wrong',
    });
    expect(verifyServiceRequest(credential.secret, header, 'POST', '/internal/delete-message', body)).toEqual({
      ok: false,
      reason: 'wrong',
    });
    expect(verifyServiceRequest(credential.secret, header, 'GET', '/internal/send-message', body)).toEqual({
      ok: false,
      reason: 'wrong',
    });
    expect(verifyServiceRequest(Buffer.from('t'.repeat(48)), header, 'POST', '/internal/send-message', body)).toEqual({
      ok: false,
      reason: 'wrong',
    });
    // another caller's name on the same signature
    expect(
      verifyServiceRequest(
        credential.secret,
        header.replace('gateway.', 'billing.'),
        'POST',
        '/internal/send-message',
        body,
      ),
    ).toEqual({ ok: false, reason: 'wrong' });
  });

  it('refuses a missing, malformed, expired or far-future credential', () => {
    const now = Date.now();
    const check = (header: unknown) =>
      verifyServiceRequest(credential.secret, header, 'POST', '/internal/x', body, now);
    expect(check(undefined)).toEqual({ ok: false, reason: 'missing' });
    expect(check('')).toEqual({ ok: false, reason: 'missing' });
    expect(check('gateway')).toEqual({ ok: false, reason: 'malformed' });
    expect(check(['a', 'b'])).toEqual({ ok: false, reason: 'malformed' });
    expect(
      check(
        signServiceRequest(credential, 'POST', '/internal/x', body, now - (SERVICE_CREDENTIAL_TTL_SECONDS + 1) * 1000),
      ),
    ).toEqual({ ok: false, reason: 'expired' });
    expect(check(signServiceRequest(credential, 'POST', '/internal/x', body, now + 10 * 60_000))).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(check(signServiceRequest(credential, 'POST', '/internal/x', body, now - 30_000))).toMatchObject({
      ok: true,
    });
  });

  it('a secret shorter than 32 characters or a bad caller name is refused at start', () => {
    expect(() => serviceCredential('gateway', 'short')).toThrow(/SERVICE_SECRET/);
    expect(() => serviceCredential('Gate Way', 's'.repeat(48))).toThrow(/caller/);
  });

  it('costs a few microseconds per call (a batch of calls is one request: one signature)', () => {
    const batch = JSON.stringify({
      calls: Array.from({ length: 20 }, () => ({ path: '/internal/send-message', trace: {}, body: JSON.parse(body) })),
    });
    for (const [name, json] of [
      ['one command', body],
      ['a batch of 20', batch],
    ] as const) {
      const n = 20_000;
      const started = process.hrtime.bigint();
      for (let i = 0; i < n; i++) {
        const header = signServiceRequest(credential, 'POST', '/internal/room/batch', json);
        if (!verifyServiceRequest(credential.secret, header, 'POST', '/internal/room/batch', json).ok)
          throw new Error('not verified');
      }
      const micros = Number(process.hrtime.bigint() - started) / 1000 / n;
      console.log(`[service credential] sign + verify, ${name} (${json.length} bytes): ${micros.toFixed(1)} µs`);
      // a few µs on an idle core; the bound leaves room for a loaded test machine and still catches a slow scheme
      expect(micros).toBeLessThan(1000);
    }
  });
});

describe('internal paths', () => {
  const ROUTE = '/internal/room-keys/abc';
  it('every spelling that some HTTP stack resolves to an internal route is one', () => {
    for (const path of [
      ROUTE,
      `/.${ROUTE}`,
      `/%2e${ROUTE}`,
      `/%2E${ROUTE}`,
      `/api/..${ROUTE}`,
      `/api/%2e%2e${ROUTE}`,
      `/api/.%2E${ROUTE}`,
      `//${ROUTE}`,
      `/%2f${ROUTE.slice(1)}`,
      `/api%2F..%2F${ROUTE.slice(1)}`,
      `/%5c${ROUTE.slice(1)}`,
      '/INTERNAL/room-keys/abc',
      '/%69nternal/x',
      '/%2569nternal/x',
      '/api/%252e%252e/internal/x',
      '/internal',
      '/internal?x=1',
      '/internal;x',
      '/internal.json',
      '/a/b/../../internal/x',
      'http://evil.example/internal/x',
      'HTTP://evil.example/./Internal/x',
    ])
      expect(isInternalPath(path), path).toBe(true);
  });

  it('public paths are not, including names that begin with "internal" and stray percent signs', () => {
    for (const path of [
      '/',
      '/api/workspaces/internals/info',
      '/internals',
      '/internal-room',
      '/internal_x',
      '/api/internal/x',
      '/api/workspaces/check-name/100%25',
      '/api/workspaces/room/%',
      '/api/workspaces/%E0%A4%A/info',
      '/socket.io/?EIO=4',
    ]) {
      expect(isInternalPath(path), path).toBe(false);
    }
    expect(canonicalPath('/API/./x//y/../Z')).toBe('/api/x/z');
  });

  it('a forwarder sends the path as fetch resolves it, and refuses one that resolves to an internal route', () => {
    expect(forwardablePath('/api/workspaces/x/info?a=1')).toBe('/api/workspaces/x/info?a=1');
    expect(forwardablePath('/api/./workspaces/%2e/x/info')).toBe('/api/workspaces/x/info');
    expect(forwardablePath('/api/x/../y')).toBe('/api/y');
    for (const refused of [
      `/.${ROUTE}`,
      `/api/%2e%2e${ROUTE}`,
      `//${ROUTE}`,
      '/INTERNAL/x',
      'http://evil.example/api',
      '*',
      '//evil.example/x/../../internal/x',
    ]) {
      expect(forwardablePath(refused), refused).toBeNull();
    }
  });
});
