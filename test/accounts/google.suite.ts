/** Sign-in with Google against a real local OpenID Connect provider (oidc-provider playing Google). */
import { describe, it, expect } from 'vitest';
import { AUTH_API, ERRORS, type ProfileAnswer } from '@ephemera/proto';
import { http } from '../helpers/clients.ts';
import {
  CookieJar,
  bearer,
  googleFinish,
  googleSignIn,
  googleUntilCallback,
  register,
  uniqueEmail,
  type AccountTarget,
} from './account-clients.ts';

export function googleSuite(target: () => AccountTarget) {
  describe('sign-in with Google (OIDC code flow with PKCE)', () => {
    it('the status route says Google sign-in is on (docs/product/accounts.md A3: the pages offer it only then)', async () => {
      const res = await http<{ enabled: boolean }>(target().url, AUTH_API.googleStatus);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ enabled: true });
    });

    it('signs in through the provider: a verified ID token makes an account and a session', async () => {
      const t = target();
      const email = uniqueEmail('g');
      const { landing, answer } = await googleSignIn(t, {
        sub: `google-${email}`,
        email,
        emailVerified: true,
        name: 'Gina',
      });
      expect(landing).toBe('/login?google=1&redirect=%2Fdashboard');
      expect(answer.status).toBe(200);
      expect(answer.body.user).toMatchObject({ email, username: 'Gina', googleId: `google-${email}` });
      expect((await http<ProfileAnswer>(t.url, AUTH_API.profile, { headers: bearer(answer.body.token) })).status).toBe(
        200,
      );
    });

    it('links an existing e-mail account only when the provider verified the address', async () => {
      const t = target();
      const email = uniqueEmail('link');
      const byCode = await register(t, email, 'coder');
      const unverified = await googleSignIn(t, { sub: `u-${email}`, email, emailVerified: false, name: 'Mallory' });
      expect(unverified.landing).toBe('/login?google=failed');
      expect(unverified.answer.status).toBe(401);
      const verified = await googleSignIn(t, { sub: `v-${email}`, email, emailVerified: true, name: 'Coder' });
      expect(verified.answer.body.user.id).toBe(byCode.user.id);
    });

    it('a forged google-auth body (e-mail and Google id from the browser) signs nobody in', async () => {
      const t = target();
      const email = uniqueEmail('victim');
      await register(t, email, 'victim');
      const forged = await http(t.url, AUTH_API.googleAuth, {
        body: { email, name: 'victim', googleId: '123', picture: 'x' },
      });
      expect(forged.status).toBe(401);
      expect(forged.body).toMatchObject({ code: 'GOOGLE_AUTH_FAILED', message: ERRORS.GOOGLE_AUTH_FAILED });
      expect(forged.body.token).toBeUndefined();
      const forgedCookie = await http(t.url, AUTH_API.googleAuth, {
        body: { email },
        headers: { cookie: 'ephemera_google_handoff=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      });
      expect(forgedCookie.status).toBe(401);
    });

    it('a callback is finished only in the browser that started the flow (login CSRF)', async () => {
      const t = target();
      const email = uniqueEmail('attacker');
      // The attacker runs the flow in their own browser up to the callback, then has the victim's browser open it.
      const attacker = new CookieJar();
      const callback = await googleUntilCallback(t, attacker, {
        sub: `a-${email}`,
        email,
        emailVerified: true,
        name: 'Attacker',
      });
      const start = await fetch(`${t.url}${AUTH_API.googleStart}?redirect=/dashboard`, { redirect: 'manual' });
      expect(start.headers.getSetCookie().find((c) => c.startsWith('ephemera_google_flow='))).toMatch(/HttpOnly/i);
      expect(start.headers.getSetCookie().find((c) => c.startsWith('ephemera_google_flow='))).toMatch(/SameSite=Lax/i);
      const victim = await googleFinish(t, new CookieJar(), callback);
      expect(victim.landing).toBe('/login?google=failed');
      expect(victim.answer.status).toBe(401);
      expect(victim.answer.body.token).toBeUndefined();
    });

    it('a callback without a flow this service started is refused', async () => {
      const t = target();
      const res = await fetch(`${t.url}${AUTH_API.googleCallback}?code=abc&state=forged`, { redirect: 'manual' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/login?google=failed');
    });
  });
}
