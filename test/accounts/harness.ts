/**
 * One start per mode for the account suites: Mailpit (real SMTP), oidc-provider as "Google", then the product
 * pointed at both. Sign-in code limits per address are raised: every test here comes from the same address.
 */
import { describe, beforeAll, afterAll } from 'vitest';
import { freePort, rateLimitConfig, type LimitConfig } from '@ephemera/platform';
import { AUTH_API } from '@ephemera/proto';
import { startMailpit } from '../helpers/mailpit.ts';
import { startOidcProvider } from '../helpers/oidc-provider.ts';
import { accountsSuite } from './accounts.suite.ts';
import { googleSuite } from './google.suite.ts';
import { contactSuite } from './contact.suite.ts';
import { httpAuthzSuite } from './http-authz.suite.ts';
import type { AccountTarget } from './account-clients.ts';
import type { ContactMessages } from '@ephemera/billing';

export const SUPERADMIN_EMAIL = 'root@example.test';
export const accountTestLimits = (): LimitConfig =>
  rateLimitConfig(process.env, { signInCodesPerAddress: { points: 1000, durationSec: 3600 } });

export interface ProductStart {
  url: string;
  urlB?: string;
  advanceClock(ms: number): void;
  stop(): Promise<void>;
  /** the billing service's contact messages in the started product */
  contact: ContactMessages;
}
/** What the product needs to know: where to mail, who "Google" is, and the address its callback is served on. */
export interface AccountEnv {
  smtpUrl: string;
  superadminEmail: string;
  rateLimits: LimitConfig;
  google: { issuer: string; clientId: string; clientSecret: string; redirectUri: string };
}

export function accountSuites(name: string, start: (env: AccountEnv, callbackPort: number) => Promise<ProductStart>) {
  describe(`accounts: ${name}`, () => {
    let t: AccountTarget | null = null;
    beforeAll(async () => {
      const mail = await startMailpit();
      const callbackPort = await freePort();
      const redirectUri = `http://127.0.0.1:${callbackPort}${AUTH_API.googleCallback}`;
      const oidc = await startOidcProvider(redirectUri);
      const product = await start(
        {
          smtpUrl: mail.smtpUrl,
          superadminEmail: SUPERADMIN_EMAIL,
          rateLimits: accountTestLimits(),
          google: { issuer: oidc.issuer, clientId: oidc.clientId, clientSecret: oidc.clientSecret, redirectUri },
        },
        callbackPort,
      );
      t = {
        url: product.url,
        urlB: product.urlB,
        mail,
        oidc,
        superadminEmail: SUPERADMIN_EMAIL,
        contact: product.contact,
        advanceClock: product.advanceClock,
        async stop() {
          await product.stop();
          await oidc.stop();
          await mail.stop();
        },
      };
    });
    afterAll(async () => {
      await t?.stop();
    });
    const target = () => {
      if (!t) throw new Error('target not started');
      return t;
    };
    accountsSuite(target);
    googleSuite(target);
    contactSuite(target);
    httpAuthzSuite(target);
  });
}
