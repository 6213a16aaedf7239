/** The billing service as a module: composed in-process by services/embedded, or as its own process by main.ts. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOPICS, type AccountRoomsApi } from '@ephemera/proto';
import {
  projectionHandlers,
  migrate,
  ownEmailLookup,
  type BackupPart,
  type EventLog,
  type Logger,
  type Pool,
  type RoomKeyring,
  type RoomKeyStore,
  type Subscription,
} from '@ephemera/platform';
import { BillingService } from './billing-service.ts';
import { AdminAccounts } from './admin-accounts.ts';
import { billingBackupPart } from './backup-part.ts';
import { AdminBillingSystem } from './admin-system.ts';
import { GoogleSignIn, type GoogleConfig } from './google.ts';
import { createMailer } from './mailer.ts';
import { createPayments, type Payments, type PaymentsOptions } from './payments/index.ts';

export const BILLING_MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

export interface BillingModule {
  service: BillingService;
  google: GoogleSignIn;
  payments: Payments;
  /** the superadmin's actions on accounts, and what the System, Feedback and Settings tabs need */
  adminAccounts: AdminAccounts;
  adminSystem: AdminBillingSystem;
  /** its part of the service backup */
  backup: BackupPart;
  stop(): Promise<void>;
}

export interface BillingOptions {
  databaseUrl: string;
  pool: Pool;
  log: EventLog;
  logger: Logger;
  /** the account keys (a key store of billing's own when distributed; the process's store when embedded) */
  accountKeys: RoomKeyStore;
  /**
   * the keyring over that store which the sealed event log uses (it forgets an account's key when account.deleted
   * arrives, on every replica); absent: one of billing's own
   */
  accountKeyring?: RoomKeyring;
  rooms: AccountRoomsApi;
  /** SMTP_URL; absent: mails go to the log (embedded development) */
  smtpUrl?: string;
  mailFrom?: string;
  superadminEmail?: string | null;
  google?: GoogleConfig | null;
  /** Stripe (STRIPE_*); absent or stripe null: payments are off, their routes answer 503 */
  payments?: PaymentsOptions;
  /** how often admin trials whose time is over go back to free (default one minute; 0: never) */
  adminTrialSweepMs?: number;
  now?: () => Date;
}

export async function startBillingModule(opts: BillingOptions): Promise<BillingModule> {
  await migrate(opts.databaseUrl, BILLING_MIGRATIONS, 'billing');
  const now = opts.now ?? (() => new Date());
  const mailer = createMailer({
    smtpUrl: opts.smtpUrl,
    from: opts.mailFrom ?? 'Ephemera <no-reply@ephemera.local>',
    logger: opts.logger,
  });
  const emailLookup = await ownEmailLookup(opts.accountKeys);
  const service = new BillingService({
    pool: opts.pool,
    log: opts.log,
    logger: opts.logger,
    mailer,
    accountKeys: opts.accountKeys,
    accountKeyring: opts.accountKeyring,
    emailLookup,
    rooms: opts.rooms,
    superadminEmail: opts.superadminEmail,
    now,
  });
  const google = new GoogleSignIn(opts.google ?? null, opts.pool, opts.logger, now);
  if (!google.configured)
    opts.logger.info(
      'Google sign-in is off (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and GOOGLE_REDIRECT_URI are not set)',
    );
  // The read model is a projection of the billing topic: current before we take requests (replay after a restore).
  const projection: Subscription = await opts.log.subscribe({
    groupId: 'billing-projection',
    topics: [TOPICS.billing],
    fromBeginning: true,
    ...projectionHandlers(opts.pool, 'billing', service.projector),
  });
  await projection.caughtUp();
  // Accounts stored in the clear by an earlier version are sealed before the first request (docs/crypto.md).
  const sealed = await service.sealLegacyAccounts();
  if (sealed > 0) opts.logger.info({ sealed }, 'account e-mails and usernames sealed');
  const payments = createPayments({
    ...(opts.payments ?? { stripe: null }),
    billing: service,
    pool: opts.pool,
    rooms: opts.rooms,
    logger: opts.logger,
    mailer,
    now,
  });
  const adminAccounts = new AdminAccounts(service, {
    rooms: opts.rooms,
    pool: opts.pool,
    logger: opts.logger,
    now,
    superadminEmail: opts.superadminEmail,
  });
  const adminSystem = new AdminBillingSystem(service, opts.pool, { now, superadminEmail: opts.superadminEmail });
  // Admin trials end on time: an unref'd interval, like the room service's expiry sweeper (admin-accounts.ts).
  const trialSweepMs = opts.adminTrialSweepMs ?? 60_000;
  const trialSweep =
    trialSweepMs > 0
      ? setInterval(() => {
          adminAccounts.endLapsedTrials().catch((err) => opts.logger.warn({ err }, 'admin trial sweep failed'));
        }, trialSweepMs)
      : null;
  trialSweep?.unref();
  return {
    service,
    google,
    payments,
    adminAccounts,
    adminSystem,
    backup: billingBackupPart(opts.pool, opts.accountKeys),
    async stop() {
      if (trialSweep) clearInterval(trialSweep);
      await payments.stop();
      await projection.stop();
    },
  };
}
