/**
 * The Users tab's routes (behind the superadmin check): the list (a page of the search and filters over every
 * account, with the totals), the CSV export, and the actions on an account,
 * each done by billing (AdminAccountsApi), audited here under the account's id (the audit trail shows its e-mail
 * while the account exists), and answered once this service's directory shows it.
 */
import express from 'express';
import { stringify } from 'csv-stringify/sync';
import { AdminUpgradeBodySchema, DomainError, SuspendBodySchema, type AdminUsersPage } from '@ephemera/proto';
import { parseOrThrow } from '@ephemera/platform';
import type { AdminContext } from '../context.ts';
import { adminOf } from '../superadmin.ts';
import { emailParam, reasonOf, SetSubscriptionBodySchema, usersQuery } from './inputs.ts';
import { accountsPage, allAccounts, directoryShows, untilProjected, type AccountRecord } from './read-model.ts';
import { presentUser } from './present.ts';
import { publicRoute } from '@ephemera/platform';
import { adminCallers } from '../superadmin.ts';

const EXPORT_KINDS = ['users', 'analytics'];

export function usersRouter(ctx: AdminContext): express.Router {
  const r = express.Router();
  const callers = adminCallers(ctx);
  const { pool } = ctx;
  /** the account an action names: never the superadmin's own (billing refuses it too) */
  const targetOf = (req: express.Request) => {
    const email = emailParam(req);
    if (email === ctx.superadminEmail)
      throw new DomainError('FORBIDDEN', "The superadmin's own account cannot be changed here");
    return email;
  };
  const shows = (what: string, check: () => Promise<boolean>) => untilProjected(ctx, what, check);

  publicRoute(r, 'adminUsers', callers, async (req, res) => {
    const q = usersQuery(req);
    const { rows, total, totals } = await accountsPage(pool, ctx.accountFields, { ...q, hide: ctx.superadminEmail });
    const answer: AdminUsersPage = { users: rows.map(presentUser), page: q.page, pageSize: q.pageSize, total, totals };
    res.json({ success: true, ...answer });
  });

  publicRoute(r, 'adminDeleteUser', callers, async (req, res) => {
    const reason = reasonOf(req.body);
    const email = targetOf(req);
    const { accountId, deletedRooms } = await ctx.accounts.deleteAccountByAdmin({ email, reason });
    await ctx.events.audit(adminOf(res), 'user.deleted', accountId, reason, { accountId, deletedRooms });
    await shows('user deleted', () => directoryShows.accountDeleted(pool, accountId, deletedRooms));
    res.json({ success: true, message: 'User delete completed successfully', deletedRooms });
  });

  publicRoute(r, 'adminSuspendUser', callers, async (req, res) => {
    const body = parseOrThrow(SuspendBodySchema, req.body ?? {});
    const email = targetOf(req);
    const reason = body.suspended ? (body.reason ?? null) : null;
    const { accountId } = await ctx.accounts.suspendAccount({ email, suspended: body.suspended, reason });
    await ctx.events.audit(
      adminOf(res),
      body.suspended ? 'user.suspended' : 'user.unsuspended',
      accountId,
      body.reason || null,
      { accountId },
    );
    await shows('user suspension', () => directoryShows.suspension(pool, accountId, body.suspended));
    res.json({
      success: true,
      message: `User ${body.suspended ? 'suspend' : 'unsuspend'} completed successfully`,
      suspended: body.suspended,
    });
  });

  publicRoute(r, 'adminUpgradeUser', callers, async (req, res) => {
    const { tier, days } = parseOrThrow(AdminUpgradeBodySchema, req.body ?? {});
    const email = targetOf(req);
    const { accountId, until } = await ctx.accounts.grantAdminTrial({ email, tier, days });
    await ctx.events.audit(adminOf(res), 'user.upgraded', accountId, null, { accountId, tier, days, until });
    await shows('admin trial', () => directoryShows.adminTrial(pool, accountId, tier, until, ctx.now()));
    res.json({
      success: true,
      message: 'User upgrade completed successfully',
      tier,
      upgradedByAdmin: true,
      trialEndsAt: until,
    });
  });

  // No screen uses it: only the end of an admin trial is accepted (inputs.ts).
  publicRoute(r, 'adminSetSubscription', callers, async (req, res) => {
    parseOrThrow(SetSubscriptionBodySchema, req.body ?? {});
    const email = targetOf(req);
    const { accountId, tier } = await ctx.accounts.endAdminTrial({ email });
    await ctx.events.audit(adminOf(res), 'user.subscription-set', accountId, null, {
      accountId,
      tier,
      endedAdminTrial: true,
    });
    await shows('admin trial ended', () => directoryShows.adminTrialEnded(pool, accountId));
    res.json({
      success: true,
      message: 'User subscription update completed successfully',
      subscriptionTier: tier,
      upgradedByAdmin: false,
    });
  });

  // The analytics router answers kind=analytics before this one; any other kind is refused here.
  publicRoute(r, 'adminExport', callers, async (req, res) => {
    const kind = String(req.params.kind);
    if (kind !== 'users') {
      throw new DomainError(
        'VALIDATION',
        EXPORT_KINDS.includes(kind) ? `The ${kind} export is not available` : 'Export users or analytics',
      );
    }
    const rows = await allAccounts(pool, ctx.accountFields, ctx.superadminEmail);
    const day = ctx.now().toISOString().slice(0, 10);
    await ctx.events.audit(adminOf(res), 'export.downloaded', 'users', null, { kind: 'users', rows: rows.length });
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="users-export-${day}.csv"`);
    res.send(usersCsv(rows));
  });
  return r;
}

export const USERS_CSV_COLUMNS = [
  'email',
  'username',
  'subscriptionTier',
  'upgradedByAdmin',
  'trialEndsAt',
  'paymentStatus',
  'suspended',
  'suspendedReason',
  'createdAt',
  'lastActiveAt',
] as const;

/**
 * The users CSV (RFC 4180 by csv-stringify). A cell that a spreadsheet would run as a formula (= + - @, tab, CR at its
 * start: a username is anyone's text) gets a leading apostrophe (OWASP CSV injection).
 */
export function usersCsv(rows: AccountRecord[]): string {
  const cell = (v: string | boolean | null) => {
    if (v === null) return '';
    const s = String(v);
    return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  };
  return stringify(
    rows.map((a) => {
      const u = presentUser(a);
      return [
        u.email,
        u.username,
        u.subscriptionTier,
        u.upgradedByAdmin,
        u.trialEndsAt,
        u.paymentStatus,
        u.suspended,
        u.suspendedReason,
        u.createdAt,
        a.last_active_at.toISOString(),
      ].map(cell);
    }),
    { header: true, columns: [...USERS_CSV_COLUMNS] },
  );
}
