/**
 * Claim Your Room by Google, and Google sign-in offered only when it is on (docs/product/accounts.md A3, A9), in
 * a real browser: the claim with a real local OpenID Connect provider playing Google (the app, or in distributed mode
 * the ingress in front of billing, serves the callback address registered with it) in both modes; Google sign-in off
 * in embedded mode (the same billing code answers in both). The claim by e-mail code is in claim.e2e.test.ts.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { AUTH_API } from '@ephemera/proto';
import { startOidcProvider, type TestOidcProvider } from '../../test/helpers/oidc-provider.ts';
import { freePort } from '../../deploy/local/infra.ts';
import { assertFrontendBuilt, launchBrowser, textOf, uniqueRoomName, User, WAIT_MS } from './browser.ts';
import { embeddedTarget, MODES, type BrowserTarget } from './targets.ts';

const storedAuth = (u: User) =>
  u.page.evaluate(
    () =>
      JSON.parse(localStorage.getItem('ephemera.auth') ?? 'null') as { workspaceId: string; userToken: string } | null,
  );

async function createRoomAsGuest(u: User, room: string): Promise<void> {
  await u.goto(`/${room}`);
  await u.page.locator('[data-testid="join-overlay"][data-mode="create"]').waitFor({ timeout: WAIT_MS });
  await u.byTestId('username-input').fill('guest');
  await u.byTestId('overlay-submit').click();
  await u.byTestId('room-view').waitFor({ timeout: WAIT_MS });
}

async function openClaimDialog(u: User): Promise<void> {
  await u.byTestId('settings-button').click();
  await u.byTestId('register-banner').getByRole('button', { name: 'Register' }).click();
  await u.byTestId('claim-modal').waitFor({ timeout: WAIT_MS });
}

for (const [mode, start] of MODES) {
  describe(`browser: Claim Your Room by Google (${mode})`, () => {
    let browser: Browser;
    let target: BrowserTarget;
    let oidc: TestOidcProvider;
    beforeAll(async () => {
      assertFrontendBuilt();
      const port = await freePort();
      const redirectUri = `http://127.0.0.1:${port}${AUTH_API.googleCallback}`;
      oidc = await startOidcProvider(redirectUri);
      const google = { issuer: oidc.issuer, clientId: oidc.clientId, clientSecret: oidc.clientSecret, redirectUri };
      // the sign-in mail is never sent here; distributed mode starts billing (accounts) only with a mail server
      [target, browser] = await Promise.all([
        start('claim-google', { port, google, smtpUrl: 'smtp://127.0.0.1:1' }),
        launchBrowser(),
      ]);
    }, 240_000);
    afterAll(async () => {
      await browser?.close().catch(() => {});
      await target?.stop();
      await oidc?.stop();
    });

    it('Continue with Google in Claim Your Room: back in the room, it says "Registration successful! Room ownership claimed."', async () => {
      const u = await User.open(browser, 'guest', target.urlA, target.cookiesA, target.replicaA);
      try {
        const room = uniqueRoomName('gclaim');
        await createRoomAsGuest(u, room);
        const guest = (await storedAuth(u))!;
        await openClaimDialog(u);
        const email = `gclaim-${Date.now()}@example.test`;
        oidc.signInAs({ sub: `google-${email}`, email, emailVerified: true, name: 'Gina' });
        await u.byTestId('claim-google').click();
        await u.byTestId('claim-outcome').waitFor({ timeout: WAIT_MS });
        expect(await textOf(u.byTestId('claim-outcome'))).toBe('Registration successful! Room ownership claimed.');
        expect(new URL(u.page.url()).pathname, 'back in the room').toBe(`/${room}`);
        const owner = (await storedAuth(u))!;
        expect(owner.workspaceId).toBe(guest.workspaceId);
        expect(owner.userToken, 'the guest token was replaced by the owner token').not.toBe(guest.userToken);
        await u.byTestId('claim-done').click();
        await u.byTestId('room-view').waitFor({ timeout: WAIT_MS });
        expect(await u.byTestId('join-overlay').count(), 'the owner is not sent to the join form').toBe(0);
        await u.byTestId('settings-button').click();
        expect(await u.byTestId('register-banner').count(), 'signed in: no register banner').toBe(0);
        expect(u.pageErrors).toEqual([]);
      } finally {
        await u.close();
      }
    }, 120_000);
  });
}

describe('browser: Google sign-in offered only when on (embedded)', () => {
  let browser: Browser;
  let target: BrowserTarget;
  beforeAll(async () => {
    assertFrontendBuilt();
    [target, browser] = await Promise.all([embeddedTarget('no-google', { google: null }), launchBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close().catch(() => {});
    await target?.stop();
  });

  it('Google sign-in off: no "Continue with Google" on /login or in Claim Your Room; its address lands on /login saying so, not on JSON', async () => {
    const u = await User.open(browser, 'guest', target.urlA);
    try {
      await u.goto('/login');
      await u.byTestId('login-send-code').waitFor({ timeout: WAIT_MS });
      await u.page.waitForLoadState('networkidle');
      expect(await u.byTestId('login-google').count(), '/login offers no Google sign-in').toBe(0);

      await createRoomAsGuest(u, uniqueRoomName('noglogin'));
      await openClaimDialog(u);
      await u.page.waitForLoadState('networkidle');
      expect(await u.byTestId('claim-google').count(), 'Claim Your Room offers no Google sign-in').toBe(0);

      await u.goto(`${AUTH_API.googleStart}?redirect=/dashboard`);
      await u.page.waitForURL((url) => url.pathname === '/login', { timeout: WAIT_MS });
      expect(await textOf(u.byTestId('login-error'))).toBe('Google sign-in is not configured');
    } finally {
      await u.close();
    }
  }, 120_000);
});
