/**
 * Sign-in with Google trusts an ID token only when its signature verifies against the issuer's published keys
 * (JWKS), not because it came from the token endpoint. The issuer here is a hostile one on loopback: a real HTTP
 * server with discovery, authorization, token and JWKS endpoints whose token endpoint answers with an ID token
 * whose claims are all right (issuer, audience, expiry, the flow's nonce) but that is signed by a key it does not
 * publish, or not signed at all. Those are refused; the same token signed by the published key is accepted (so the
 * refusals are the signature's). A callback whose state is not the browser's flow cookie is refused before the code
 * is used.
 */
import { describe, it, expect, afterAll } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createLogger, createPool, migrate } from '@ephemera/platform';
import { createTestDatabase } from '../../../test/helpers/db.ts';
import { BILLING_MIGRATIONS, GoogleSignIn } from '../src/index.ts';

type Signing = 'published-key' | 'other-key' | 'none';
const CLIENT_ID = 'ephemera-test';
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

function idToken(
  claims: Record<string, unknown>,
  signing: Signing,
  keys: { published: KeyObject; other: KeyObject },
): string {
  if (signing === 'none') return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid: 'k1' })}.${b64(claims)}`;
  const key = signing === 'published-key' ? keys.published : keys.other;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

/** An issuer that signs its ID tokens as `signing` says; it publishes one key (kid k1). */
async function startIssuer() {
  const published = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const state = { signing: 'published-key' as Signing };
  const nonces = new Map<string, string>(); // code -> the nonce of the flow it was issued to
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, issuer);
    const json = (body: unknown) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (url.pathname === '/jwks')
      return json({
        keys: [{ ...published.publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' }],
      });
    if (url.pathname === '/authorize') {
      const code = `code-${nonces.size + 1}`;
      nonces.set(code, url.searchParams.get('nonce') ?? '');
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state')!);
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token') {
      let form = '';
      req.on('data', (c: Buffer) => {
        form += c.toString();
      });
      req.on('end', () => {
        const nonce = nonces.get(new URLSearchParams(form).get('code') ?? '') ?? '';
        const now = Math.floor(Date.now() / 1000);
        const claims = {
          iss: issuer,
          aud: CLIENT_ID,
          sub: 'victim-sub',
          email: 'victim@example.test',
          email_verified: true,
          name: 'Victim',
          iat: now,
          exp: now + 600,
          nonce,
        };
        json({
          access_token: 'at',
          token_type: 'Bearer',
          expires_in: 600,
          id_token: idToken(claims, state.signing, { published: published.privateKey, other: other.privateKey }),
        });
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    state,
    stop: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

describe('Google sign-in: the ID token and the browser binding', async () => {
  const idp = await startIssuer();
  const databaseUrl = await createTestDatabase();
  await migrate(databaseUrl, BILLING_MIGRATIONS, 'billing');
  const pool = createPool(databaseUrl);
  const google = new GoogleSignIn(
    {
      issuer: idp.issuer,
      clientId: CLIENT_ID,
      clientSecret: 'secret-0123456789',
      redirectUri: 'http://127.0.0.1:9/api/auth/google/callback',
    },
    pool,
    createLogger('test', 'silent'),
    () => new Date(),
  );
  afterAll(async () => {
    await pool.end();
    await idp.stop();
  });

  /** start -> the issuer's authorization endpoint -> the callback's query, and the state the browser's cookie holds */
  async function throughIssuer(signing: Signing) {
    idp.state.signing = signing;
    const flow = await google.start('/dashboard');
    const res = await fetch(flow.url, { redirect: 'manual' });
    return { query: new URL(res.headers.get('location')!).searchParams, cookieState: flow.state };
  }

  it('accepts a token signed by the key the issuer publishes', async () => {
    const { query, cookieState } = await throughIssuer('published-key');
    const { identity } = await google.callback(query, cookieState);
    expect(identity).toMatchObject({ sub: 'victim-sub', email: 'victim@example.test', emailVerified: true });
  });

  it('refuses a token signed by another key, and an unsigned one', async () => {
    for (const signing of ['other-key', 'none'] as const) {
      const { query, cookieState } = await throughIssuer(signing);
      await expect(google.callback(query, cookieState), signing).rejects.toMatchObject({ code: 'GOOGLE_AUTH_FAILED' });
    }
  });

  it('refuses a callback whose state is not the flow cookie of the browser that delivers it', async () => {
    const { query, cookieState } = await throughIssuer('published-key');
    const other = await throughIssuer('published-key'); // the attacker's own flow: a valid state of another browser
    await expect(google.callback(query, null)).rejects.toMatchObject({ code: 'GOOGLE_AUTH_FAILED' });
    await expect(google.callback(query, other.cookieState)).rejects.toMatchObject({ code: 'GOOGLE_AUTH_FAILED' });
    // The flow was not spent by the refusals: the browser that started it still finishes it.
    await expect(google.callback(query, cookieState)).resolves.toMatchObject({ redirect: '/dashboard' });
  });
});
