/**
 * What was mailed survives a restart and a replay (docs/product/payments.md PAY10): the billing module on its own
 * (embedded event log,
 * PostgreSQL, a real Mailpit) records account.receipt-mailed and account.renewal-reminder-mailed; a new module over
 * the same database (a restart), then one over a database rebuilt from the log alone (a replay), sweep at the same
 * times and mail nothing again. The provider's state is recorded here (no Stripe call is made).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { TOPICS } from '@ephemera/proto';
import { EmbeddedEventLog, createLogger, createPool, fileRoomKeys, sealedEventLog } from '@ephemera/platform';
import { startBillingModule, type Payments, type SubscriptionState } from '@ephemera/billing';
import { createTestDatabase, databaseWithLogOf } from '../helpers/db.ts';
import { startMailpit, type Mailpit } from '../helpers/mailpit.ts';
import { NO_ROOMS } from '../../services/billing/test/billing-harness.ts';

const DAY = 86_400_000;
const logger = createLogger('test', 'silent');
const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'billing-notices-keys-'));
const masterKey = randomBytes(32);
let mail: Mailpit;
beforeAll(async () => {
  mail = await startMailpit();
});
afterAll(async () => {
  await mail?.stop();
  fs.rmSync(keyDir, { recursive: true, force: true });
});
const subscriptions = new Map<string, SubscriptionState>();
const clock = Date.now();

async function boot(databaseUrl: string) {
  const pool = createPool(databaseUrl);
  const keys = fileRoomKeys(keyDir, masterKey);
  const log = sealedEventLog(new EmbeddedEventLog(pool), keys.keyring);
  await log.init(Object.values(TOPICS));
  let payments: Payments | null = null;
  const billing = await startBillingModule({
    databaseUrl,
    pool,
    log,
    logger,
    accountKeys: keys.store,
    rooms: NO_ROOMS,
    smtpUrl: mail.smtpUrl,
    now: () => new Date(clock),
    payments: {
      stripe: { secretKey: 'sk_test_unused', webhookSecret: 'whsec_unused', apiBase: 'http://127.0.0.1:9' },
      stateReader: (provider) => ({
        checkoutSession: async () => null,
        subscription: async (id) => subscriptions.get(id) ?? null,
        charge: (id) => provider.charge(id),
      }),
      expirySweepMs: 0,
      reminderSweepMs: 0,
      onCreated: (p) => {
        payments = p;
      },
    },
  });
  const p = payments as unknown as Payments;
  return {
    pool,
    billing,
    payments: p,
    /** a sweep at `at`; the number of reminders it mailed */
    sweep: async (at: number) => (await p.reminders.sweep(new Date(at))).reminders,
    async stop() {
      await billing.stop();
      await log.close();
      await pool.end();
    },
  };
}

const notices = async (pool: import('pg').Pool) =>
  (
    await pool.query(
      'SELECT account_id, kind, notice_key, mailed_at FROM billing.mailed_notices ORDER BY kind, notice_key',
    )
  ).rows;

describe('receipts and reminders across a restart and a replay', () => {
  it('a restarted module and one rebuilt from the log mail nothing again', async () => {
    const email = `notices-${randomBytes(4).toString('hex')}@example.test`;
    const databaseUrl = await createTestDatabase();
    const first = await boot(databaseUrl);
    let firstStopped = false;
    let rebuiltUrl: string;
    try {
      const svc = first.billing.service;
      const code = await svc.codes.issue(email);
      const { user } = await svc.register({ email, username: 'renewer', code }, null);
      const end = clock + 10 * DAY;
      subscriptions.set('sub_restart', {
        id: 'sub_restart',
        status: 'active',
        customerId: 'cus_restart',
        accountId: user.id,
        plan: 'business',
        currentPeriodEnd: new Date(end),
        cancelAtPeriodEnd: true,
      });
      expect(
        await first.payments.outcomes!.syncSubscription('sub_restart', { accountId: user.id, providerEventId: null }),
      ).toBe('account.subscription-activated');
      await first.payments.receipts.settled();
      const thresholds = [end - 7 * DAY + 3_600_000, end - 3 * DAY + 3_600_000, end - DAY + 3_600_000];
      for (const at of thresholds) expect(await first.sweep(at)).toBe(1);
      for (const at of thresholds) expect(await first.sweep(at)).toBe(0); // a second sweep
      const mailed = await notices(first.pool);
      const period = new Date(end).toISOString();
      expect(mailed.map((n) => `${n.kind} ${n.notice_key}`)).toEqual([
        `receipt rcpt_sub_sub_restart_business_${end}`,
        `renewal-reminder reminder:${period}`,
        `renewal-reminder urgent:${period}`,
        `renewal-reminder warning:${period}`,
      ]);
      expect(await mail.countTo(email)).toBe(4); // the receipt and three reminders (the code above was not mailed)
      firstStopped = true;
      await first.stop();

      // a restart: a new module over the same database and log
      const restarted = await boot(databaseUrl);
      try {
        for (const at of thresholds) expect(await restarted.sweep(at)).toBe(0);
        // the provider reports the same state again (a late webhook): recorded already, no second receipt
        expect(
          await restarted.payments.outcomes!.syncSubscription('sub_restart', {
            accountId: user.id,
            providerEventId: null,
          }),
        ).toMatch(/^unchanged/);
        await restarted.payments.receipts.settled();
        rebuiltUrl = await databaseWithLogOf(restarted.pool);
      } finally {
        await restarted.stop();
      }

      // a replay: a database holding only the log rebuilds what was mailed, and mails nothing again
      const rebuilt = await boot(rebuiltUrl);
      try {
        expect(await notices(rebuilt.pool)).toEqual(mailed);
        expect((await rebuilt.pool.query('SELECT count(*)::int AS n FROM billing.receipt_outbox')).rows[0].n).toBe(0);
        for (const at of thresholds) expect(await rebuilt.sweep(at)).toBe(0);
      } finally {
        await rebuilt.stop();
      }
      expect(await mail.countTo(email)).toBe(4);
    } finally {
      if (!firstStopped) await first.stop();
    }
  });
});
