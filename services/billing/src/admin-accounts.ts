/**
 * The superadmin's actions on accounts (AdminAccountsApi; docs/product/admin.md ADM4-ADM5). Billing records its own
 * events,
 * sealed under the account's key like the rest, each decided under the account's lock from its current row:
 *   suspend    account.suspended, then every session revoked (a sign-in racing with it finds the row suspended and
 *              is refused: billing-service.ts openSession); unsuspend: account.unsuspended.
 *   delete     the account's own deletion (its rooms deleted with their keys, its sessions, its key, the tombstone).
 *   trial      account.admin-trial-granted (a 30-day pro or business tier, upgradedByAdmin), then the account's rooms
 *              take the tier (RoomTierChanged, as a payment does). Its end, by the sweep below or by the superadmin:
 *              the rooms go back to free, then account.admin-trial-ended (in that order, so a failure half-way is
 *              finished by the next sweep, which still finds the trial).
 * Tiers change only from verified provider data or an admin trial: an account that pays for its plan gets no trial
 * (its subscription decides its tier), and a verified subscription event ends a running trial (projection.ts).
 * Inputs are parsed here: in distributed mode they arrive over internal-rpc as plain JSON. The superadmin's own
 * account is never suspended, deleted or put on a trial.
 */
import { z } from 'zod';
import {
  ADMIN_LIMITS,
  ADMIN_TEXT,
  DomainError,
  SERVICE_TEXTS,
  EmailSchema,
  type AccountRoomsApi,
  type AdminAccountsApi,
  type SessionAccount,
  type Tier,
} from '@ephemera/proto';
import { parseOrThrow, systemActor, type Logger, type Pool } from '@ephemera/platform';
import type { BillingService } from './billing-service.ts';
import type { AccountRow } from './accounts-repository.ts';
import { underSweepLock } from './sweep-lock-repository.ts';

const DAY_MS = 86_400_000;
/** pg_try_advisory_lock key of the trial sweep ("trials" in ASCII): one replica sweeps at a time */
const TRIAL_SWEEP_LOCK = 0x747269616c73;

const Email = z.object({ email: EmailSchema });
const SuspendInput = Email.extend({ suspended: z.boolean(), reason: z.string().trim().max(500).nullable().optional() });
const DeleteInput = Email.extend({ reason: z.string().trim().min(1, ADMIN_TEXT.reasonRequired).max(500) });
const TrialInput = Email.extend({
  tier: z.enum(['pro', 'business'], 'Choose pro or business'),
  days: z.literal(ADMIN_LIMITS.trialDays, `Admin trials last ${ADMIN_LIMITS.trialDays} days`),
});

export interface AdminAccountsDeps {
  rooms: AccountRoomsApi;
  pool: Pool;
  logger: Logger;
  now: () => Date;
  superadminEmail?: string | null;
}

/** A paid tier that is not an admin trial can only have come from a verified subscription. */
const paysForItsPlan = (a: AccountRow) => a.tier !== 'free' && !a.upgradedByAdmin;

export class AdminAccounts implements AdminAccountsApi {
  private readonly superadmin: string | null;

  constructor(
    private readonly billing: BillingService,
    private readonly deps: AdminAccountsDeps,
  ) {
    this.superadmin = deps.superadminEmail?.trim().toLowerCase() || null;
  }

  /** A token that cannot be one (not text, too long) names nobody: null, as an unknown one (the caller answers 401). */
  async resolveSession(input: { token: string }): Promise<SessionAccount | null> {
    const parsed = z.object({ token: z.string().min(1).max(300) }).safeParse(input);
    return parsed.success ? this.billing.resolveSession(parsed.data.token) : null;
  }

  async suspendAccount(input: {
    email: string;
    suspended: boolean;
    reason: string | null;
  }): Promise<{ accountId: string }> {
    const { email, suspended, reason } = parseOrThrow(SuspendInput, input);
    const account = await this.target(email);
    const at = this.deps.now().toISOString();
    if (suspended) {
      if (!reason) throw new DomainError('VALIDATION', ADMIN_TEXT.reasonRequired);
      await this.billing.recordSystemFor(account.id, (current) =>
        current.suspended && current.suspendedReason === reason
          ? null
          : { type: 'account.suspended', payload: { accountId: current.id, reason, suspendedAt: at } },
      );
      await this.billing.sessions.revokeAll(account.id);
    } else {
      await this.billing.recordSystemFor(account.id, (current) =>
        current.suspended
          ? { type: 'account.unsuspended', payload: { accountId: current.id, unsuspendedAt: at } }
          : null,
      );
    }
    return { accountId: account.id };
  }

  async deleteAccountByAdmin(input: {
    email: string;
    reason: string;
  }): Promise<{ accountId: string; deletedRooms: string[] }> {
    const { email } = parseOrThrow(DeleteInput, input); // the reason is the superadmin's audit event's (admin topic)
    const account = await this.target(email);
    return { accountId: account.id, deletedRooms: await this.billing.eraseAccount(account, systemActor) };
  }

  async grantAdminTrial(input: {
    email: string;
    tier: 'pro' | 'business';
    days: number;
  }): Promise<{ accountId: string; until: string }> {
    const { email, tier, days } = parseOrThrow(TrialInput, input);
    const account = await this.target(email);
    const now = this.deps.now();
    const until = new Date(now.getTime() + days * DAY_MS).toISOString();
    await this.billing.recordSystemFor(account.id, (current) => {
      if (paysForItsPlan(current)) {
        throw new DomainError(
          'VALIDATION',
          `This account pays for the ${current.tier} plan: its tier changes only through its subscription`,
        );
      }
      return {
        type: 'account.admin-trial-granted',
        payload: { accountId: current.id, tier, previousTier: current.tier, until, grantedAt: now.toISOString() },
      };
    });
    await this.deps.rooms.changeTierOfAccount({ accountId: account.id, tier, reason: `admin trial until ${until}` });
    return { accountId: account.id, until };
  }

  async endAdminTrial(input: { email: string }): Promise<{ accountId: string; tier: Tier }> {
    const { email } = parseOrThrow(Email, input);
    const account = await this.target(email);
    if (!account.upgradedByAdmin) throw new DomainError('VALIDATION', SERVICE_TEXTS.noAdminTrial);
    await this.endTrial(account, 'ended-by-admin');
    return { accountId: account.id, tier: 'free' };
  }

  /**
   * Billing's periodic sweep (module.ts, like payments/reminders.ts): every admin trial whose time is over goes back
   * to free. One sweep at a time across replicas (advisory lock). Returns the accounts that went back.
   */
  async endLapsedTrials(now: Date = this.deps.now()): Promise<string[]> {
    return underSweepLock(this.deps.pool, TRIAL_SWEEP_LOCK, [], async () => {
      const ended: string[] = [];
      for (const account of await this.billing.accounts.trialsEndedBy(now)) {
        try {
          if (await this.endTrial(account, 'expired', now)) ended.push(account.id);
        } catch (err) {
          this.deps.logger.warn({ err, accountId: account.id }, 'admin trial not ended; the next sweep retries');
        }
      }
      if (ended.length > 0) this.deps.logger.info({ ended: ended.length }, 'admin trials ended');
      return ended;
    });
  }

  /** Rooms first, then the event: until the event is recorded the sweep finds the trial again and finishes. */
  private async endTrial(
    account: AccountRow,
    reason: 'expired' | 'ended-by-admin',
    now: Date = this.deps.now(),
  ): Promise<boolean> {
    const before = await this.billing.accounts.byId(account.id);
    if (!before?.upgradedByAdmin) return false; // deleted, or a subscription took over since the sweep listed it
    await this.deps.rooms.changeTierOfAccount({ accountId: account.id, tier: 'free', reason: `admin trial ${reason}` });
    return this.billing.recordSystemFor(account.id, (current) => {
      if (!current.upgradedByAdmin) return null; // a subscription took over meanwhile, or another sweep got here first
      if (reason === 'expired' && (!current.trialEndsAt || current.trialEndsAt.getTime() > now.getTime())) return null; // re-granted
      return {
        type: 'account.admin-trial-ended',
        payload: { accountId: current.id, tier: 'free', reason, endedAt: now.toISOString() },
      };
    });
  }

  /** The account an admin action names: unknown 404; the superadmin's own is out of reach. */
  private async target(email: string): Promise<AccountRow> {
    const account = await this.billing.accounts.byEmail(email);
    if (!account) throw new DomainError('USER_NOT_FOUND', `No account with the e-mail ${email}`);
    if (this.superadmin && account.email === this.superadmin)
      throw new DomainError('FORBIDDEN', "The superadmin's own account cannot be changed here");
    return account;
  }
}
