/**
 * Every /api/admin/ call: the Bearer session must be live and its account's e-mail SUPERADMIN_EMAIL. The spec's
 * x-user-email header is never read. Anonymous or revoked: 401; another account: 403 with the spec's text.
 */
import type express from 'express';
import { DomainError, type AdminAccountsApi } from '@ephemera/proto';

export function bearerToken(req: express.Request): string | null {
  const h = req.get('authorization');
  const m = h ? /^Bearer\s+(\S+)$/i.exec(h) : null;
  return m ? m[1] : null;
}

export function requireSuperadmin(accounts: AdminAccountsApi, superadminEmail: string | null): express.RequestHandler {
  return (req, res, next) => {
    void (async () => {
      const token = bearerToken(req);
      if (!token) throw new DomainError('NO_AUTH_TOKEN');
      const account = await accounts.resolveSession({ token });
      if (!account) throw new DomainError('SESSION_INVALID');
      if (!superadminEmail || account.email.toLowerCase() !== superadminEmail) throw new DomainError('SUPERADMIN_REQUIRED');
      res.locals.admin = account.email.toLowerCase();
    })().then(() => next(), next);
  };
}

/** the signed-in superadmin's e-mail (set by requireSuperadmin) */
export const adminOf = (res: express.Response): string => res.locals.admin as string;
