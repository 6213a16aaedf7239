/**
 * Auto-delete of inactive accounts (Settings tab): an account with no sign-in or session use for the 7-day grace
 * period plus the configured days is eligible (billing decides who: AdminBillingSystem.inactiveAccounts; never the
 * superadmin). A run deletes exactly the accounts eligible when it starts, each through billing's admin deletion
 * (its rooms and their keys go with it) and each audited; the run itself is audited as cleanup.run with its counts,
 * which admin.cleanup_runs keeps for the history. One run at a time across replicas (a Postgres advisory lock).
 */
import { ADMIN_LIMITS, DomainError, SERVICE_TEXTS, type CleanupStatus, type EligibleUser } from '@ephemera/proto';
import type { Pool } from '@ephemera/platform';
import type { AdminContext } from '../context.ts';
import { readConfig } from './config.ts';
import { cleanupHistory, releaseRunLock, runningElsewhere, tryTakeRunLock } from './auto-delete-repository.ts';

export const AUTO_DELETE_REASON = 'auto-delete: inactive';
/** the audit's "admin" of the scheduled sweep's runs */
export const SWEEP_ACTOR = 'system';

export interface CleanupRunResult {
  success: true;
  eligibleCount: number;
  deletedCount: number;
  failedCount: number;
}

export class AutoDelete {
  private running = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: AdminContext) {}

  async eligible(): Promise<Array<EligibleUser & { accountId: string }>> {
    const { autoDeleteDaysAfterGracePeriod: days } = await readConfig(this.ctx.pool);
    const list = await this.ctx.billingSystem.inactiveAccounts({ graceDays: ADMIN_LIMITS.autoDelete.graceDays, days });
    return list.filter((u) => u.email.toLowerCase() !== this.ctx.superadminEmail); // billing excludes it too
  }

  async status(): Promise<CleanupStatus> {
    const [eligible, history, elsewhere] = await Promise.all([
      this.eligible(),
      cleanupHistory(this.ctx.pool),
      runningElsewhere(this.ctx.pool),
    ]);
    return {
      currentEligibleUsers: eligible.length,
      deletedUsersCount: history.deletedTotal,
      lastRunAt: history.lastRunAt,
      lastDeletionCount: history.lastDeleted,
      isRunning: this.running || elsewhere,
      eligibleUsers: eligible.map(({ email, subscriptionTier, daysSinceEligible }) => ({
        email,
        subscriptionTier,
        daysSinceEligible,
      })),
    };
  }

  /** One run now. `admin`: the superadmin's e-mail (manual) or SWEEP_ACTOR. A second run meanwhile is refused (409). */
  async run(admin: string, trigger: 'manual' | 'scheduled'): Promise<CleanupRunResult> {
    if (this.running) throw alreadyRunning();
    this.running = true;
    const lock = await this.ctx.pool.connect();
    try {
      if (!(await tryTakeRunLock(lock))) throw alreadyRunning();
      try {
        return await this.deleteEligible(admin, trigger);
      } finally {
        await releaseRunLock(lock).catch(() => {});
      }
    } finally {
      lock.release();
      this.running = false;
    }
  }

  private async deleteEligible(admin: string, trigger: 'manual' | 'scheduled'): Promise<CleanupRunResult> {
    const eligible = await this.eligible();
    let deleted = 0;
    let failed = 0;
    for (const user of eligible) {
      try {
        const r = await this.ctx.accounts.deleteAccountByAdmin({ email: user.email, reason: AUTO_DELETE_REASON });
        deleted += 1;
        await this.ctx.events.audit(admin, 'user.deleted', r.accountId, AUTO_DELETE_REASON, {
          accountId: r.accountId,
          deletedRooms: r.deletedRooms,
          daysSinceEligible: user.daysSinceEligible,
          trigger,
        });
      } catch (err) {
        failed += 1; // e.g. deleted meanwhile by its owner; the next run sees the rest again
        this.ctx.logger.warn({ err, accountId: user.accountId }, 'auto-delete: account not deleted');
      }
    }
    await this.ctx.events.audit(admin, 'cleanup.run', null, null, {
      trigger,
      eligible: eligible.length,
      deleted,
      failed,
    });
    return { success: true, eligibleCount: eligible.length, deletedCount: deleted, failedCount: failed };
  }

  /**
   * The scheduled sweep: every intervalMs, a run if auto-delete is on (another replica's run in progress: skipped).
   * Unref'd, and it ends itself once the pool is closed (the module has no stop hook for it).
   */
  startSweeper(intervalMs: number): void {
    if (this.timer || intervalMs <= 0) return;
    this.timer = setInterval(() => {
      void this.sweep();
    }, intervalMs);
    this.timer.unref();
  }

  stopSweeper(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async sweep(): Promise<CleanupRunResult | null> {
    const pool = this.ctx.pool as Pool & { ending?: boolean };
    if (pool.ending) {
      this.stopSweeper();
      return null;
    }
    try {
      if (!(await readConfig(this.ctx.pool)).autoDeleteEnabled) return null;
      return await this.run(SWEEP_ACTOR, 'scheduled');
    } catch (err) {
      if (!(err instanceof DomainError))
        this.ctx.logger.warn({ err }, 'auto-delete sweep failed; the next one retries');
      return null;
    }
  }
}

function alreadyRunning(): DomainError {
  return new DomainError('VALIDATION', SERVICE_TEXTS.cleanupRunning, 409);
}
