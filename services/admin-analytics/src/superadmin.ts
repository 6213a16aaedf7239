/**
 * Who the superadmin is: the account of a live Bearer session whose e-mail is SUPERADMIN_EMAIL (billing answers
 * whose a session is). Every /api/admin/ route is registered from its row of the authorization table (publicRoute),
 * whose `superadmin` rows refuse anyone else: anonymous or revoked 401, another account 403 with the spec's text.
 * The spec's x-user-email header is never read.
 */
import type express from 'express';
import type { SessionAccount } from '@ephemera/proto';
import { accountOf, sessionAccountCaller, type Caller, type Callers } from '@ephemera/platform';
import type { AdminContext } from './context.ts';

export function adminCallers(ctx: Pick<AdminContext, 'accounts' | 'superadminEmail'>): Callers<SessionAccount> {
  return { account: sessionAccountCaller((token) => ctx.accounts.resolveSession({ token }), ctx.superadminEmail) };
}

/** the signed-in superadmin's e-mail (the caller publicRoute resolved for this request) */
export const adminOf = (res: express.Response): string =>
  accountOf(res.locals.caller as Caller<SessionAccount>).account.email.toLowerCase();
