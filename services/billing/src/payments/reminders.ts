/**
 * Renewal reminders (docs/product/payments.md PAY6): a periodic sweep (RENEWAL_REMINDER_INTERVAL_MS, default one
 * hour; built like the room
 * service's expiry sweeper: an unref'd interval that logs a failed run and carries on) mails each paid account whose
 * renewal urgency (renewalStatus, proto/src/payments.ts) reaches a stage, once per stage and billing period:
 *   reminder (7 days or less; business only: the spec shows no reminder for pro), warning (3 days or less),
 *   urgent (1 day or less), grace (expired, within the 7-day grace), expired (grace over; also an account the
 *   expiry sweep already returned to free).
 * A stage skipped between two sweeps is not mailed late: only the account's current stage is.
 * Auto-renewal: a subscription Stripe will charge by itself (payment active, not cancelling at the period's end) gets
 * no reminder before its expiry; telling a paying customer to renew would be wrong. Stripe's own state decides (the
 * dashboard's switch changes it there first: auto-renewal.ts). Grace and expired are mailed
 * whatever the setting: by then the renewal did not happen.
 * What was mailed is an event (account.renewal-reminder-mailed -> billing.mailed_notices): a second sweep, a restart
 * or a replay sends nothing again. One sweep at a time: chained in this process, a Postgres advisory lock across
 * replicas. The sweep also retries receipts whose send failed (receipts.ts).
 */
import { RENEWAL, reminderKey, renewalStatus, type RenewalStatus, type ReminderStage } from '@ephemera/proto';
import type { Logger, Pool } from '@ephemera/platform';
import type { BillingService } from '../billing-service.ts';
import type { AccountRow } from '../accounts-repository.ts';
import type { Mailer } from '../mailer.ts';
import { underSweepLock } from '../sweep-lock-repository.ts';
import { reminderMail } from './mail-texts.ts';
import { wasMailed } from './repository.ts';
import type { Receipts } from './receipts.ts';

const DAY = 86_400_000;
/** pg_try_advisory_lock key of the sweep ("remind" in ASCII) */
const SWEEP_LOCK = 0x72656d696e64;
/** accounts that lapsed longer ago than this are not told (e.g. at this feature's first sweep) */
const EXPIRED_NOTICE_WINDOW_MS = 30 * DAY;

export interface ReminderDeps {
  pool: Pool;
  billing: BillingService;
  mailer: Mailer;
  receipts: Receipts;
  logger: Logger;
  now: () => Date;
  publicUrl: string | null;
}

export interface SweepResult {
  /** another replica held the sweep's lock: this one did nothing */
  skipped: boolean;
  reminders: number;
  receipts: { mailed: number; failed: number };
}

/** Whether a stage before the expiry is pointless: Stripe will charge the subscription by itself. */
export const renewsAutomatically = (a: AccountRow): boolean =>
  a.tier !== 'free' && a.paymentStatus === 'active' && a.subscriptionId !== null && !a.cancelAtPeriodEnd;

/** The reminder an account is due at `now` (null: none), with the status whose message the mail carries. */
export function reminderDue(a: AccountRow, now: Date): { stage: ReminderStage; status: RenewalStatus } | null {
  const expiresAt = a.subscriptionExpiresAt;
  if (a.tier === 'free') {
    // Returned to free by the expiry: its own status says nothing any more; the notice is the spec's expired one.
    if (a.paymentStatus !== 'cancelled' || !a.subscriptionId || !expiresAt || expiresAt.getTime() >= now.getTime())
      return null;
    return {
      stage: 'expired',
      status: renewalStatus({ tier: 'business', paymentStatus: 'cancelled', expiresAt: new Date(0) }, now),
    };
  }
  const paymentStatus =
    (['active', 'past_due', 'cancelled', 'trial'] as const).find((s) => s === a.paymentStatus) ?? 'trial';
  const status = renewalStatus({ tier: a.tier, paymentStatus, expiresAt }, now);
  let stage: ReminderStage | null;
  switch (status.renewalUrgency) {
    case 'reminder':
    case 'warning':
      stage = status.renewalUrgency;
      break;
    case 'urgent':
      stage = status.isInGracePeriod ? 'grace' : 'urgent';
      break;
    case 'expired':
      stage = 'expired';
      break;
    default:
      stage = null;
  }
  if (!stage) return null;
  if ((stage === 'reminder' || stage === 'warning' || stage === 'urgent') && renewsAutomatically(a)) return null;
  return { stage, status };
}

export class RenewalReminders {
  private chain: Promise<unknown> = Promise.resolve();
  private queued = 0;

  constructor(private readonly deps: ReminderDeps) {}

  /** Sweeps now (tests pass their own `now`); sweeps asked for meanwhile run one after the other. */
  sweep(now: Date = this.deps.now()): Promise<SweepResult> {
    this.queued++;
    const run = this.chain
      .then(() => this.run(now))
      .finally(() => {
        this.queued--;
      });
    this.chain = run.catch(() => {});
    return run;
  }

  /** The timer's call: skipped while a sweep is still running (a slow SMTP server must not pile sweeps up). */
  tick(): void {
    if (this.queued > 0) return;
    this.sweep().catch((err) => this.deps.logger.warn({ err }, 'renewal reminder sweep failed'));
  }

  /** Resolves when no sweep is running. */
  async idle(): Promise<void> {
    await this.chain;
  }

  private async run(now: Date): Promise<SweepResult> {
    const { pool, billing, logger } = this.deps;
    const skipped: SweepResult = { skipped: true, reminders: 0, receipts: { mailed: 0, failed: 0 } };
    return underSweepLock(pool, SWEEP_LOCK, skipped, async () => {
      const receipts = await this.deps.receipts.retryDue(now);
      let reminders = 0;
      const until = new Date(now.getTime() + (RENEWAL.reminderDays + 1) * DAY);
      const since = new Date(now.getTime() - RENEWAL.graceDays * DAY - EXPIRED_NOTICE_WINDOW_MS);
      for (const account of await billing.accounts.renewalCandidates(until, since)) {
        try {
          if (await this.remind(account, now)) reminders++;
        } catch (err) {
          // Not recorded, so the next sweep tries this account again.
          logger.warn({ err, accountId: account.id }, 'renewal reminder not mailed; the next sweep retries');
        }
      }
      if (reminders > 0 || receipts.mailed > 0) logger.info({ reminders, receipts }, 'renewal reminder sweep');
      return { skipped: false, reminders, receipts };
    });
  }

  private async remind(account: AccountRow, now: Date): Promise<boolean> {
    const due = reminderDue(account, now);
    if (!due) return false;
    const periodEnd = account.subscriptionExpiresAt?.toISOString() ?? null;
    if (await wasMailed(this.deps.pool, account.id, 'renewal-reminder', reminderKey(due.stage, periodEnd)))
      return false;
    const tier = account.tier === 'free' ? null : account.tier;
    await this.deps.mailer.send(
      reminderMail(account, due.stage, due.status, tier, account.subscriptionExpiresAt, this.deps.publicUrl),
    );
    const days = account.subscriptionExpiresAt
      ? Math.ceil((account.subscriptionExpiresAt.getTime() - now.getTime()) / DAY) || 0
      : null;
    await this.deps.billing.recordSystemFor(account.id, () => ({
      type: 'account.renewal-reminder-mailed',
      payload: {
        accountId: account.id,
        stage: due.stage,
        periodEnd,
        daysUntilExpiry: days,
        mailedAt: now.toISOString(),
      },
    }));
    return true;
  }
}
