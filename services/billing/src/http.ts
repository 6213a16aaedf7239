/**
 * HTTP: the account calls of specs/accounts-and-payments.md section 7 (the ingress sends /api/auth/ and /api/contact
 * here) and the internal route the room service asks sessions on. Handlers translate only: parse, call one use case, answer.
 * Identity is the session's bearer token (HTTP_AUTHZ); an e-mail or a Google id in a body names nobody.
 */
import express, { type Request } from 'express';
import { z } from 'zod';
import { ACCOUNT_INTERNAL, DomainError, HTTP_ROUTES } from '@ephemera/proto';
import { noStore, parseOrThrow, rateLimited, route, type RateLimits } from '@ephemera/platform';
import type { BillingService } from './billing-service.ts';
import { GoogleSignIn, HANDOFF_COOKIE, FLOW_COOKIE, FLOW_COOKIE_PATH, FLOW_COOKIE_MAX_AGE_MS, safeRedirect } from './google.ts';

/** `Authorization: Bearer {token}`, or null. */
export const bearerOf = (req: Request) => /^Bearer ([A-Za-z0-9_-]{16,200})$/.exec(req.get('authorization') ?? '')?.[1] ?? null;
const cookieOf = (req: Request, name: string) =>
  (req.get('cookie') ?? '').split(';').map((c) => c.trim().split('=')).find(([k]) => k === name)?.[1] ?? null;

export function publicBillingRouter(billing: BillingService, google: GoogleSignIn, limits: RateLimits): express.Router {
  const r = express.Router();
  r.use('/api/auth', noStore()); // answers carry tokens and personal data: never cached
  const address = (req: Request) => req.ip ?? 'unknown';
  const signedIn = (fn: (account: Awaited<ReturnType<BillingService['accountOfToken']>>, req: Request) => Promise<unknown>) =>
    route(async (req, res) => { res.json(await fn(await billing.accountOfToken(bearerOf(req)), req)); });
  // Wrong codes count against the caller's address (only failures): guessing a 6-digit code is slowed to a crawl.
  // The try is counted before the code is looked at and given back when it was right, so a burst cannot outrun it.
  const wrongCode = (err: unknown) => err instanceof DomainError && err.code === 'SIGN_IN_CODE_INVALID';
  const withCode = (fn: (req: Request) => Promise<unknown>) => route(async (req, res) => {
    res.json(await limits.attempt('signInFailuresPerAddress', address(req), () => fn(req), wrongCode));
  });

  r.post(HTTP_ROUTES.requestCode.path, rateLimited(limits, 'signInCodesPerAddress'), route(async (req, res) => {
    const email = typeof req.body?.email === 'string' ? req.body.email.trim().toLowerCase() : '';
    if (email) await limits.consume('signInCodesPerEmail', email);
    res.json(await billing.requestCode(req.body));
  }));
  r.post(HTTP_ROUTES.register.path, withCode((req) => billing.register(req.body, bearerOf(req))));
  r.post(HTTP_ROUTES.login.path, withCode((req) => billing.login(req.body, bearerOf(req))));
  r.post(HTTP_ROUTES.recoverUsername.path, rateLimited(limits, 'usernameRecoveriesPerAddress'), route(async (req, res) => { res.json(await billing.recoverUsername(req.body)); }));

  // Google: start -> provider -> callback (verified here) -> /login?google=1 -> google-auth spends the cookie.
  r.get(HTTP_ROUTES.googleStart.path, rateLimited(limits, 'signInCodesPerAddress'), route(async (req, res) => {
    const flow = await google.start(safeRedirect(req.query.redirect));
    res.cookie(FLOW_COOKIE, flow.state, { httpOnly: true, sameSite: 'lax', secure: google.secureCookies, path: FLOW_COOKIE_PATH, maxAge: FLOW_COOKIE_MAX_AGE_MS });
    res.redirect(303, flow.url);
  }));
  r.get(HTTP_ROUTES.googleCallback.path, async (req, res) => {
    try {
      res.clearCookie(FLOW_COOKIE, { path: FLOW_COOKIE_PATH }); // one flow per cookie, finished or refused
      const { identity, redirect } = await google.callback(new URLSearchParams(req.url.split('?')[1] ?? ''), cookieOf(req, FLOW_COOKIE));
      const account = await billing.signInWithGoogle(identity);
      const id = await google.handoff(account.id);
      res.cookie(HANDOFF_COOKIE, id, { httpOnly: true, sameSite: 'lax', secure: req.secure || req.get('x-forwarded-proto') === 'https', path: '/api/auth', maxAge: 120_000 });
      res.redirect(303, `/login?google=1&redirect=${encodeURIComponent(redirect)}`);
    } catch {
      res.redirect(303, '/login?google=failed');
    }
  });
  r.post(HTTP_ROUTES.googleAuth.path, route(async (req, res) => {
    const accountId = await google.spendHandoff(cookieOf(req, HANDOFF_COOKIE));
    res.clearCookie(HANDOFF_COOKIE, { path: '/api/auth' });
    const account = await billing.accounts.byId(accountId);
    if (!account) throw new DomainError('GOOGLE_AUTH_FAILED');
    res.json(await billing.openSession(account, bearerOf(req)));
  }));

  r.get(HTTP_ROUTES.profile.path, signedIn((a) => billing.profile(a)));
  r.post(HTTP_ROUTES.updateUsername.path, signedIn((a, req) => billing.updateUsername(a, req.body)));
  r.post(HTTP_ROUTES.autoRenewal.path, signedIn((a, req) => billing.setAutoRenewal(a, req.body)));
  r.post(HTTP_ROUTES.generateRoomToken.path, signedIn((a, req) => billing.generateRoomToken(a, req.body)));
  r.get(HTTP_ROUTES.exportData.path, route(async (req, res) => {
    const account = await billing.accountOfToken(bearerOf(req));
    const data = await billing.exportData(account);
    const day = data.exportedAt.slice(0, 10);
    const safeName = account.username.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 30) || 'account';
    res.setHeader('content-disposition', `attachment; filename="ephemera-${safeName}-${day}.json"`);
    res.json(data);
  }));
  r.delete(HTTP_ROUTES.deleteAccount.path, signedIn((a, req) => billing.deleteAccount(a, req.body)));
  // The dashboard lists the rooms the account owns now (from the room service): a room that is gone is already off
  // the list, so removing it is a confirmation only.
  r.delete(HTTP_ROUTES.removeDashboardRoom.path, signedIn(async () => ({ success: true })));
  r.post(HTTP_ROUTES.logout.path, route(async (req, res) => {
    const token = bearerOf(req);
    await billing.accountOfToken(token);
    await billing.sessions.revoke(token!);
    res.json({ success: true });
  }));
  r.post(HTTP_ROUTES.logoutAll.path, signedIn(async (a) => ({ success: true, revoked: await billing.sessions.revokeAll(a.id) })));
  // The spec's subscription/update set a tier from a browser's body: refused to everyone, before anything is read.
  // Tiers change only from provider data billing verified itself (payments/webhooks.ts).
  r.post(HTTP_ROUTES.subscriptionUpdate.path, (_req, _res, next) => { next(new DomainError('SUBSCRIPTION_UPDATE_REFUSED')); });
  // The contact form: anyone; a stored message counts against the caller's address (a refused body costs nothing).
  r.post(HTTP_ROUTES.contact.path, noStore(), route(async (req, res) => {
    res.status(201).json(await billing.contact.receive(req.body, () => limits.consume('contactMessagesPerAddress', address(req))));
  }));
  r.all(/^\/api\/auth\//, (_req, res) => { res.status(404).json({ success: false, code: 'VALIDATION', message: 'Unknown API route' }); });
  return r;
}

export function internalBillingRouter(billing: BillingService): express.Router {
  const r = express.Router();
  r.post(ACCOUNT_INTERNAL.resolveSession, route(async (req, res) => {
    const { token } = parseOrThrow(z.object({ token: z.string().min(1).max(300) }), req.body);
    res.json({ account: await billing.resolveSession(token) });
  }));
  return r;
}

