/**
 * One product start per mode for the superadmin suites (docs/product/admin.md): Mailpit for sign-in codes, the
 * product with
 * SUPERADMIN_EMAIL, then a signed-in superadmin and a signed-in ordinary account. Each part's suite is its own file.
 */
import { describe, beforeAll, afterAll } from 'vitest';
import { rateLimitConfig } from '@ephemera/platform';
import { startMailpit } from '../helpers/mailpit.ts';
import { register, uniqueEmail, type AccountTarget } from '../accounts/account-clients.ts';
import { adminAuthzSuite } from './authz.suite.ts';
import { analyticsSuite } from './analytics.suite.ts';
import { directorySuite } from './directory.suite.ts';
import { systemSuite } from './system.suite.ts';
import { serviceBackupSuite } from './service-backup.suite.ts';
import type { AdminEnv, AdminProduct, AdminTarget } from './target.ts';

export const ADMIN_EMAIL = 'superadmin@example.test';

export function adminSuites(name: string, start: (env: AdminEnv) => Promise<AdminProduct>) {
  describe(`superadmin: ${name}`, () => {
    let t: AdminTarget | null = null;
    beforeAll(async () => {
      const mail = await startMailpit();
      const product = await start({
        smtpUrl: mail.smtpUrl,
        superadminEmail: ADMIN_EMAIL,
        // the lists' tests (directory.pages.ts) make more than a page of accounts and rooms from one address
        rateLimits: rateLimitConfig(process.env, {
          signInCodesPerAddress: { points: 1000, durationSec: 3600 },
          roomCreationsPerAddress: { points: 1000, durationSec: 3600 },
        }),
      });
      const accountTarget = { url: product.url, mail } as unknown as AccountTarget;
      const signIn = async (email = uniqueEmail(), username = 'someone') => ({
        email,
        token: (await register(accountTarget, email, username)).token,
      });
      const admin = await signIn(ADMIN_EMAIL, 'root');
      const user = await signIn(uniqueEmail('ordinary'), 'ordinary');
      t = {
        ...product,
        mail,
        superadminEmail: ADMIN_EMAIL,
        adminToken: admin.token,
        user,
        signIn,
        async stop() {
          await product.stop();
          await mail.stop();
        },
      };
    }, 180_000);
    afterAll(async () => {
      await t?.stop();
    });
    const target = () => {
      if (!t) throw new Error('target not started');
      return t;
    };
    adminAuthzSuite(target);
    analyticsSuite(target);
    directorySuite(target);
    systemSuite(target);
    serviceBackupSuite(target); // last: it wipes and restores every service's data
  });
}
