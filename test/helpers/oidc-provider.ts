/**
 * A real OpenID Connect provider playing "Google" in tests: the oidc-provider package on a loopback port, with one
 * confidential client. Its interaction step (normally a login page) is answered by the test: the next sign-in is
 * finished as the identity set with `signInAs` (login + consent through oidc-provider's own interactionFinished).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestIdentity {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string;
}
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  signInAs(identity: TestIdentity): void;
  stop(): Promise<void>;
}

export async function startOidcProvider(redirectUri: string): Promise<TestOidcProvider> {
  const accounts = new Map<string, TestIdentity>();
  let next: TestIdentity | null = null;
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'ephemera-test';
  const clientSecret = 'test-secret-0123456789';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // the ID token carries the claims (Google's does); otherwise they would come from userinfo only
    conformIdTokenClaims: false,
    findAccount: async (_ctx: unknown, sub: string) => {
      const who = accounts.get(sub);
      if (!who) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: who.email, email_verified: who.emailVerified, name: who.name }),
      };
    },
    features: { devInteractions: { enabled: false } },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  provider.on('server_error', () => {});
  const callback = provider.callback();
  server.on('request', (req, res) => {
    const m = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (!m) {
      callback(req, res);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        const who = next;
        if (!who) throw new Error('no test identity');
        accounts.set(who.sub, who);
        const grant = new provider.Grant({ accountId: who.sub, clientId });
        grant.addOIDCScope('openid email profile');
        const grantId = await grant.save();
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: who.sub }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
        void details;
      } catch (err) {
        res.statusCode = 500;
        res.end(String(err));
      }
    })();
  });
  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(identity) {
      next = identity;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
