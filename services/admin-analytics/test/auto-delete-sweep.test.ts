/**
 * The scheduled auto-delete sweep (Settings tab): the module's own timer, on a short period, over a real
 * PostgreSQL and the real embedded event log. While the Settings switch is off its ticks delete nobody and record no
 * run; switched on (through the same configuration change as PUT /api/admin/config), a tick deletes exactly the
 * accounts billing reports as inactive past 7 + N days, as "system", audited as a scheduled cleanup run; switched off
 * again, a newly inactive account stays; once the module is stopped, its timer runs no more.
 *
 * Billing is the one service the sweep asks (who is inactive; delete this account). It is an in-memory fake behind
 * the same ports (AdminBillingSystemApi, AdminAccountsApi): the real one would need accounts idle for weeks. Rooms and
 * messaging are never asked by a sweep; their ports refuse every call.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TOPICS,
  type AdminAccountsApi,
  type AdminBillingSystemApi,
  type AdminMessagingApi,
  type AdminRoomsApi,
  type EligibleUser,
} from '@ephemera/proto';
import {
  EmbeddedEventLog,
  MemoryEphemeralStore,
  createLogger,
  createRateLimits,
  sealedEventLog,
  type Pool,
} from '@ephemera/platform';
import { startAdminModule, type AdminModule } from '../src/index.ts';
import { readConfig, updateConfig } from '../src/system/config.ts';
import { AUTO_DELETE_REASON, SWEEP_ACTOR } from '../src/system/auto-delete.ts';
import { testRoomKeys } from '../../../test/helpers/room-keys.ts';
import { openAdminTestDatabase } from './admin-test-database.ts';

const SUPERADMIN = 'root@example.test';
const SWEEP_MS = 100;
/** how long a check that nothing happens watches: many ticks of the sweep */
const QUIET_MS = SWEEP_MS * 10;

const refuse = (port: string) => () => Promise.reject(new Error(`the sweep does not call ${port}`));

/**
 * Billing as the sweep sees it: accounts idle for some days. inactiveAccounts and deleteAccountByAdmin keep their
 * ports' contracts (eligible after graceDays + days; a deleted account is gone); the calls a sweep never makes refuse.
 */
class InMemoryBilling implements AdminAccountsApi, AdminBillingSystemApi {
  readonly resolveSession = refuse('resolveSession');
  readonly suspendAccount = refuse('suspendAccount');
  readonly grantAdminTrial = refuse('grantAdminTrial');
  readonly endAdminTrial = refuse('endAdminTrial');
  readonly feedbackList = refuse('feedbackList');
  readonly feedbackSetStatus = refuse('feedbackSetStatus');
  readonly feedbackDelete = refuse('feedbackDelete');
  readonly cleanupExpired = refuse('cleanupExpired');
  readonly failedSignIns = refuse('failedSignIns');
  private readonly idleDays = new Map<string, number>();
  /** the e-mails deleteAccountByAdmin deleted, in order, with the reason it was given */
  readonly deleted: Array<{ email: string; reason: string }> = [];

  idle(email: string, days: number): void {
    this.idleDays.set(email, days);
  }

  async inactiveAccounts({
    graceDays,
    days,
  }: {
    graceDays: number;
    days: number;
  }): Promise<Array<EligibleUser & { accountId: string }>> {
    return [...this.idleDays]
      .filter(([, idle]) => idle >= graceDays + days)
      .map(([email, idle]) => ({
        accountId: `acc-${email}`,
        email,
        subscriptionTier: 'free',
        daysSinceEligible: idle - graceDays - days,
      }));
  }

  async deleteAccountByAdmin({
    email,
    reason,
  }: {
    email: string;
    reason: string;
  }): Promise<{ accountId: string; deletedRooms: string[] }> {
    if (!this.idleDays.delete(email)) throw new Error(`no account ${email}`);
    this.deleted.push({ email, reason });
    return { accountId: `acc-${email}`, deletedRooms: [] };
  }
}

async function until(done: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, SWEEP_MS / 2));
  }
}
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('auto-delete: the scheduled sweep', () => {
  const billing = new InMemoryBilling();
  const keys = testRoomKeys();
  const backupDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-sweep-backups-'));
  const limits = createRateLimits();
  let pool: Pool;
  let admin: AdminModule;
  let stopped = false;
  const stopAdmin = async () => {
    if (admin && !stopped) {
      stopped = true;
      await admin.stop();
    }
  };

  beforeAll(async () => {
    // 200 days idle: eligible even at the default 90 days; 40: only once the setting is 30 (7 + 30 = 37); 10: never.
    billing.idle('long-gone@example.test', 200);
    billing.idle('month-away@example.test', 40);
    billing.idle('recent@example.test', 10);
    const db = await openAdminTestDatabase();
    pool = db.pool;
    const log = sealedEventLog(new EmbeddedEventLog(pool), keys.keyring);
    await log.init(Object.values(TOPICS));
    const rooms: AdminRoomsApi = { extendByAdmin: refuse('extendByAdmin'), deleteByAdmin: refuse('deleteByAdmin') };
    const messaging: AdminMessagingApi = { moderationMessages: refuse('moderationMessages') };
    admin = await startAdminModule({
      databaseUrl: db.url,
      pool,
      log,
      logger: createLogger('auto-delete-sweep-test', 'silent'),
      adminKeys: keys.store,
      keyring: keys.keyring,
      accounts: billing,
      billingSystem: billing,
      rooms,
      messaging,
      superadminEmail: SUPERADMIN,
      limits,
      ephemeral: new MemoryEphemeralStore(),
      backupDir,
      backupKey: randomBytes(32),
      autoDeleteIntervalMs: SWEEP_MS,
      logSharesDatabase: true,
    });
  });
  afterAll(async () => {
    await stopAdmin();
    await limits.close();
    await pool?.end();
    fs.rmSync(keys.dir, { recursive: true, force: true });
    fs.rmSync(backupDir, { recursive: true, force: true });
  });

  const setSwitch = (body: { autoDeleteEnabled: boolean; autoDeleteDaysAfterGracePeriod?: number }) =>
    updateConfig(admin.context, SUPERADMIN, body);
  const runs = async () =>
    (
      await pool.query<{ trigger: string; eligible: number; deleted: number; failed: number }>(
        'SELECT trigger, eligible, deleted, failed FROM admin.cleanup_runs ORDER BY at',
      )
    ).rows;
  const deletions = async () =>
    (
      await pool.query<{ target: string; reason: string; admin: string; details: { trigger: string } }>(
        `SELECT target, reason, admin, details FROM admin.audit WHERE action = 'user.deleted' ORDER BY at, seq`,
      )
    ).rows;

  it('while the switch is off (the default), its ticks delete nobody and record no run', async () => {
    expect((await readConfig(pool)).autoDeleteEnabled).toBe(false);
    await pause(QUIET_MS);
    expect(billing.deleted).toEqual([]);
    expect(await runs()).toEqual([]);
    expect(await deletions()).toEqual([]);
  });

  it('switched on, a tick deletes exactly the eligible accounts as the system, audited as a scheduled run', async () => {
    await setSwitch({ autoDeleteEnabled: true, autoDeleteDaysAfterGracePeriod: 30 });
    await until(async () => (await runs()).length > 0);
    expect(billing.deleted.map((d) => d.email).sort()).toEqual(['long-gone@example.test', 'month-away@example.test']);
    expect(billing.deleted.every((d) => d.reason === AUTO_DELETE_REASON)).toBe(true);
    expect((await runs())[0]).toEqual({ trigger: 'scheduled', eligible: 2, deleted: 2, failed: 0 });
    expect((await deletions()).map((d) => [d.target, d.reason, d.admin, d.details.trigger]).sort()).toEqual([
      ['acc-long-gone@example.test', AUTO_DELETE_REASON, SWEEP_ACTOR, 'scheduled'], // the account by its id
      ['acc-month-away@example.test', AUTO_DELETE_REASON, SWEEP_ACTOR, 'scheduled'],
    ]);
    // The next ticks find nobody left: runs with nothing to do, and no account deleted twice.
    await until(async () => (await runs()).length >= 3);
    expect((await runs()).slice(1).every((r) => r.trigger === 'scheduled' && r.eligible === 0 && r.deleted === 0)).toBe(
      true,
    );
    expect(billing.deleted).toHaveLength(2);
  });

  it("switched off again, a newly inactive account stays; a stopped module's timer runs no more, even switched on", async () => {
    await setSwitch({ autoDeleteEnabled: false });
    await pause(SWEEP_MS * 3); // a run that began before the switch went off ends
    const runsWhenOff = (await runs()).length;
    billing.idle('gone-quiet@example.test', 100);
    await pause(QUIET_MS);
    expect(billing.deleted.map((d) => d.email)).not.toContain('gone-quiet@example.test');
    expect(await runs()).toHaveLength(runsWhenOff);

    await stopAdmin();
    await setSwitch({ autoDeleteEnabled: true });
    await pause(QUIET_MS);
    expect(billing.deleted.map((d) => d.email)).not.toContain('gone-quiet@example.test');
    expect(await runs()).toHaveLength(runsWhenOff);
  });
});
