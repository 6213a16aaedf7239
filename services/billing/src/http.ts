/**
 * HTTP: the account calls (docs/protocol.md "Accounts (billing)"; the ingress sends /api/auth/ and /api/contact
 * here) and the internal route the room service asks sessions on. Handlers translate only: parse, call one use case, answer.
 * Identity is the session's bearer token (HTTP_AUTHZ); an e-mail or a Google id in a body names nobody.
 */
import express, { type Request } from 'express';
import { z } from 'zod';
import { ACCOUNT_INTERNAL, DomainError, type HttpRouteId } from '@ephemera/proto';
import {
  accountOf,
  bearerOfRequest,
  noStore,
  parseOrThrow,
  publicRoute,
  rateLimited,
  route,
  type Callers,
  type RateLimits,
} from '@ephemera/platform';
import type { BillingService } from './billing-service.ts';
import type { AccountRow } from './accounts-repository.ts';
import {
  GoogleSignIn,
  HANDOFF_COOKIE,
  FLOW_COOKIE,
  FLOW_COOKIE_PATH,
  FLOW_COOKIE_MAX_AGE_MS,
  safeRedirect,
} from './google.ts';

const cookieOf = (req: Request, name: string) =>
  (req.get('cookie') ?? '')
    .split(';')
    .map((c) => c.trim().split('='))
    .find(([k]) => k === name)?.[1] ?? null;

/** The account of the request's session (NO_AUTH_TOKEN, SESSION_INVALID, ACCOUNT_SUSPENDED otherwise). */
export const billingAccountCaller =
  (billing: BillingService): Callers<AccountRow>['account'] =>
  async (req) => {
    const account = await billing.accountOfToken(bearerOfRequest(req));
    return { kind: 'account', accountId: account.id, superadmin: billing.isSuperadmin(account), account };
  };

/** Every route from its row of the authorization table (publicRoute); identity is the session's bearer token. */
export function publicBillingRouter(billing: BillingService, google: GoogleSignIn, limits: RateLimits): express.Router {
  const r = express.Router();
  r.use('/api/auth', noStore()); // answers carry tokens and personal data: never cached
  const callers: Callers<AccountRow> = { account: billingAccountCaller(billing) };
  const address = (req: Request) => req.ip ?? 'unknown';
  /** an account route answering what fn gives for the session's account */
  const signedIn = (id: HttpRouteId, fn: (account: AccountRow, req: Request) => Promise<unknown>) =>
    publicRoute(r, id, callers, async (req, res, caller) => {
      res.json(await fn(accountOf(caller).account, req));
    });
  // Wrong codes count against the caller's address (only failures): guessing a 6-digit code is slowed to a crawl.
  // The try is counted before the code is looked at and given back when it was right, so a burst cannot outrun it.
  const wrongCode = (err: unknown) => err instanceof DomainError && err.code === 'SIGN_IN_CODE_INVALID';
  const withCode = (id: HttpRouteId, fn: (req: Request) => Promise<unknown>) =>
    publicRoute(r, id, callers, async (req, res) => {
      res.json(await limits.attempt('signInFailuresPerAddress', address(req), () => fn(req), wrongCode));
    });

  publicRoute(
    r,
    'requestCode',
    callers,
    async (req, res) => {
      // counted under the address's keyed hash: the limiter's keys (Redis) never hold an address
      const email = typeof req.body?.email === 'string' ? req.body.email.trim() : '';
      if (email) await limits.consume('signInCodesPerEmail', billing.accounts.emailHash(email));
      res.json(await billing.requestCode(req.body));
    },
    rateLimited(limits, 'signInCodesPerAddress'),
  );
  withCode('register', (req) => billing.register(req.body, bearerOfRequest(req)));
  withCode('login', (req) => billing.login(req.body, bearerOfRequest(req)));
  publicRoute(
    r,
    'recoverUsername',
    callers,
    async (req, res) => {
      res.json(await billing.recoverUsername(req.body));
    },
    rateLimited(limits, 'usernameRecoveriesPerAddress'),
  );

  // Google: start -> provider -> callback (verified here) -> /login?google=1 -> google-auth spends the cookie.
  // The pages offer "Continue with Google" only when this says it is on (docs/product/accounts.md A3).
  publicRoute(r, 'googleStatus', callers, async (_req, res) => {
    res.json({ enabled: google.configured });
  });
  // A browser navigates here: every outcome is a page (the provider, or /login saying why), never a JSON answer.
  publicRoute(r, 'googleStart', callers, async (req, res) => {
    if (!google.configured) {
      res.redirect(303, '/login?google=off');
      return;
    }
    try {
      await limits.consume('signInCodesPerAddress', address(req));
      const flow = await google.start(safeRedirect(req.query.redirect));
      res.cookie(FLOW_COOKIE, flow.state, {
        httpOnly: true,
        sameSite: 'lax',
        secure: google.secureCookies,
        path: FLOW_COOKIE_PATH,
        maxAge: FLOW_COOKIE_MAX_AGE_MS,
      });
      res.redirect(303, flow.url);
    } catch {
      res.redirect(303, '/login?google=failed');
    }
  });
  publicRoute(r, 'googleCallback', callers, async (req, res) => {
    try {
      res.clearCookie(FLOW_COOKIE, { path: FLOW_COOKIE_PATH }); // one flow per cookie, finished or refused
      const { identity, redirect } = await google.callback(
        new URLSearchParams(req.url.split('?')[1] ?? ''),
        cookieOf(req, FLOW_COOKIE),
      );
      const account = await billing.signInWithGoogle(identity);
      const id = await google.handoff(account.id);
      res.cookie(HANDOFF_COOKIE, id, {
        httpOnly: true,
        sameSite: 'lax',
        secure: req.secure || req.get('x-forwarded-proto') === 'https',
        path: '/api/auth',
        maxAge: 120_000,
      });
      res.redirect(303, `/login?google=1&redirect=${encodeURIComponent(redirect)}`);
    } catch {
      res.redirect(303, '/login?google=failed');
    }
  });
  publicRoute(r, 'googleAuth', callers, async (req, res) => {
    const accountId = await google.spendHandoff(cookieOf(req, HANDOFF_COOKIE));
    res.clearCookie(HANDOFF_COOKIE, { path: '/api/auth' });
    const account = await billing.accounts.byId(accountId);
    if (!account) throw new DomainError('GOOGLE_AUTH_FAILED');
    res.json(await billing.openSession(account, bearerOfRequest(req)));
  });

  signedIn('profile', (a) => billing.profile(a));
  signedIn('updateUsername', (a, req) => billing.updateUsername(a, req.body));
  signedIn('generateRoomToken', (a, req) => billing.generateRoomToken(a, req.body));
  publicRoute(r, 'exportData', callers, async (_req, res, caller) => {
    const { account } = accountOf(caller);
    const data = await billing.exportData(account);
    const day = data.exportedAt.slice(0, 10);
    const safeName = account.username.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 30) || 'account';
    res.setHeader('content-disposition', `attachment; filename="ephemera-${safeName}-${day}.json"`);
    res.json(data);
  });
  signedIn('deleteAccount', (a, req) => billing.deleteAccount(a, req.body));
  // The dashboard lists the rooms the account owns now (from the room service): a room that is gone is already off
  // the list, so removing it is a confirmation only.
  signedIn('removeDashboardRoom', async () => ({ success: true }));
  publicRoute(r, 'logout', callers, async (req, res) => {
    await billing.sessions.revoke(bearerOfRequest(req)!); // the row made sure it names a live session
    res.json({ success: true });
  });
  signedIn('logoutAll', async (a) => ({ success: true, revoked: await billing.sessions.revokeAll(a.id) }));
  // The spec's subscription/update set a tier from a browser's body: refused to everyone (its row allows nobody),
  // with its own text, before anything is read. Tiers change only from provider data billing verified itself.
  publicRoute(
    r,
    'subscriptionUpdate',
    callers,
    async () => {},
    (_req, _res, next) => {
      next(new DomainError('SUBSCRIPTION_UPDATE_REFUSED'));
    },
  );
  // The contact form: anyone; a stored message counts against the caller's address (a refused body costs nothing).
  publicRoute(
    r,
    'contact',
    callers,
    async (req, res) => {
      res
        .status(201)
        .json(await billing.contact.receive(req.body, () => limits.consume('contactMessagesPerAddress', address(req))));
    },
    noStore(),
  );
  r.all(/^\/api\/auth\//, (_req, res) => {
    res.status(404).json({ success: false, code: 'VALIDATION', message: 'Unknown API route' });
  });
  return r;
}

export function internalBillingRouter(billing: BillingService): express.Router {
  const r = express.Router();
  r.post(
    ACCOUNT_INTERNAL.resolveSession,
    route(async (req, res) => {
      const { token } = parseOrThrow(z.object({ token: z.string().min(1).max(300) }), req.body);
      res.json({ account: await billing.resolveSession(token) });
    }),
  );
  r.post(
    ACCOUNT_INTERNAL.accountStanding,
    route(async (req, res) => {
      const { accountId } = parseOrThrow(z.object({ accountId: z.string().min(1).max(100) }), req.body);
      res.json({ standing: await billing.standingOf(accountId) });
    }),
  );
  return r;
}
