/**
 * Sign-in with Google: OpenID Connect authorization code flow with PKCE, state and nonce against a configurable
 * issuer (OIDC_ISSUER, Google by default), by openid-client, which verifies the ID token: its signature against the
 * issuer's JWKS (enableNonRepudiationChecks: openid-client would otherwise trust the token endpoint's TLS alone),
 * issuer, audience, expiry, nonce. The flow is bound to the browser that started it: its state is also set in an
 * httpOnly cookie (FLOW_COOKIE), and a callback whose state is not the cookie's is refused, so nobody can finish
 * their own sign-in in someone else's browser (login CSRF). The browser never hands us an e-mail or a Google id: the
 * callback gets the identity from the verified token, then passes the new session to the page through a
 * single-use httpOnly cookie (no token in any address: docs/product/security.md S5), which POST /api/auth/google-auth
 * spends.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';
import { DomainError } from '@ephemera/proto';
import type { Logger, Pool } from '@ephemera/platform';
import type { VerifiedGoogleIdentity } from './billing-service.ts';
import {
  deleteFlowsExpiredBefore,
  insertFlow,
  insertHandoff,
  takeLiveFlow,
  takeLiveHandoff,
} from './google-repository.ts';

export interface GoogleConfig {
  /** OIDC_ISSUER: https://accounts.google.com in production; tests run oidc-provider on loopback */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** the public address of GET /api/auth/google/callback, exactly as registered with the provider */
  redirectUri: string;
}

const HANDOFF_TTL_MS = 2 * 60_000;
export const HANDOFF_COOKIE = 'ephemera_google_handoff';
/** the flow's state, in the browser that started it (httpOnly, SameSite=Lax so the provider's redirect carries it) */
export const FLOW_COOKIE = 'ephemera_google_flow';
export const FLOW_COOKIE_PATH = '/api/auth/google';
export const FLOW_COOKIE_MAX_AGE_MS = 10 * 60_000;
const FLOW_TTL_MS = FLOW_COOKIE_MAX_AGE_MS;
const hash = (v: string) => createHash('sha256').update(v).digest('hex');

/** Same-origin paths only (docs/product/security.md S9): '//evil', '/\evil', 'javascript:' all land on the default. */
export function safeRedirect(value: unknown, fallback = '/dashboard'): string {
  if (typeof value !== 'string' || !/^\/(?![/\\])[\x21-\x7e]*$/.test(value)) return fallback;
  return value;
}

function sameSecret(a: string, b: string | null): boolean {
  if (b === null || a.length === 0) return false;
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

export class GoogleSignIn {
  private config: Promise<oidc.Configuration> | null = null;

  constructor(
    private readonly settings: GoogleConfig | null,
    private readonly pool: Pool,
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {}

  get configured(): boolean {
    return this.settings !== null;
  }

  private configuration(): Promise<oidc.Configuration> {
    const s = this.settings;
    if (!s) throw new DomainError('GOOGLE_NOT_CONFIGURED');
    if (!this.config) {
      const insecure = new URL(s.issuer).protocol === 'http:'; // a local test issuer only; Google is https
      // enableNonRepudiationChecks: every ID token's signature is checked against the issuer's JWKS.
      const execute = insecure
        ? [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks]
        : [oidc.enableNonRepudiationChecks];
      this.config = oidc.discovery(new URL(s.issuer), s.clientId, s.clientSecret, undefined, { execute });
      this.config.catch(() => {
        this.config = null;
      }); // retry discovery on the next sign-in
    }
    return this.config;
  }

  /**
   * A new flow: the provider's authorization address, and the state the caller sets in the browser's FLOW_COOKIE
   * (state, nonce and PKCE verifier kept here, 10 minutes).
   */
  async start(redirectAfter: string): Promise<{ url: string; state: string }> {
    const config = await this.configuration();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    await deleteFlowsExpiredBefore(this.pool, this.now());
    await insertFlow(this.pool, {
      state,
      codeVerifier,
      nonce,
      redirect: safeRedirect(redirectAfter),
      expiresAt: new Date(this.now().getTime() + FLOW_TTL_MS),
    });
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.settings!.redirectUri,
      scope: 'openid email profile',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    }).href;
    return { url, state };
  }

  /** FLOW_COOKIE is Secure when the callback is served over https. */
  get secureCookies(): boolean {
    return this.settings !== null && new URL(this.settings.redirectUri).protocol === 'https:';
  }

  /**
   * The callback: `state` must be the one this browser's FLOW_COOKIE holds (`browserState`); the flow it names is
   * spent here (single use), the code exchanged with its PKCE verifier, the ID token verified. Returns the identity
   * and where the page wanted to go.
   */
  async callback(
    query: URLSearchParams,
    browserState: string | null,
  ): Promise<{ identity: VerifiedGoogleIdentity; redirect: string }> {
    const config = await this.configuration();
    const state = query.get('state') ?? '';
    if (!sameSecret(state, browserState)) throw new DomainError('GOOGLE_AUTH_FAILED');
    const row = await takeLiveFlow(this.pool, state, this.now());
    if (!row) throw new DomainError('GOOGLE_AUTH_FAILED');
    const current = new URL(this.settings!.redirectUri);
    current.search = query.toString();
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: row.codeVerifier,
        expectedState: state,
        expectedNonce: row.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims?.sub) throw new Error('no ID token claims');
      return {
        redirect: row.redirect,
        identity: {
          sub: String(claims.sub),
          email: typeof claims.email === 'string' ? claims.email : null,
          emailVerified: claims.email_verified === true,
          name: typeof claims.name === 'string' ? claims.name : null,
          picture: typeof claims.picture === 'string' ? claims.picture : null,
        },
      };
    } catch (err) {
      this.logger.warn({ err: { message: (err as Error).message } }, 'Google sign-in callback refused');
      throw new DomainError('GOOGLE_AUTH_FAILED');
    }
  }

  /** A single-use id (the cookie's value) that stands for the signed-in account for two minutes. */
  async handoff(accountId: string): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await insertHandoff(this.pool, hash(id), accountId, new Date(this.now().getTime() + HANDOFF_TTL_MS));
    return id;
  }

  async spendHandoff(id: string | null): Promise<string> {
    if (!id) throw new DomainError('GOOGLE_AUTH_FAILED');
    return takeLiveHandoff(this.pool, hash(id), this.now());
  }
}
