/**
 * The admin-analytics service as a module: composed in-process by services/embedded, or as its own process by
 * main.ts. It reads every topic of the event log into its own read models (schema admin) and serves /api/admin/.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ADMIN_AGGREGATE,
  TOPICS,
  type AdminAccountsApi,
  type AdminBillingSystemApi,
  type AdminMessagingApi,
  type AdminRoomsApi,
} from '@ephemera/proto';
import {
  projectionHandlers,
  migrate,
  type EphemeralStore,
  type EventLog,
  type Logger,
  type Pool,
  type RateLimits,
  type RoomKeyring,
  type RoomKeyStore,
  type Subscription,
} from '@ephemera/platform';
import type { AdminContext } from './context.ts';
import { AdminEvents } from './events.ts';
import { adminProjector } from './projection.ts';
import { AccountFields } from './account-fields.ts';
import { sealLegacyDirectory } from './directory/index.ts';
import { startAutoDeleteSweeper } from './system/index.ts';
import { adminSettingsFromEnv } from './config.ts';

export const ADMIN_MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

export interface AdminOptions {
  databaseUrl: string;
  pool: Pool;
  log: EventLog;
  logger: Logger;
  accounts: AdminAccountsApi;
  billingSystem: AdminBillingSystemApi;
  rooms: AdminRoomsApi;
  messaging: AdminMessagingApi;
  /** each owner's part of the service backup (absent: a test of other parts; a backup is then refused) */
  backupParts?: AdminContext['backupParts'];
  /** the admin aggregate's key (its events are sealed like a room's): billing-style own store when distributed */
  adminKeys: RoomKeyStore;
  /** the keyring of the sealed event log: accounts' keys and the address lookup key (billing's) come through it */
  keyring: RoomKeyring;
  superadminEmail?: string | null;
  limits: RateLimits;
  ephemeral: EphemeralStore;
  backupDir: string;
  backupKey: Buffer;
  /** distributed mode: the Kafka the log lives on (a backup records the group's committed offsets) */
  eventLogKafka?: AdminContext['eventLogKafka'];
  /** distributed mode: the other services' /metrics addresses (ADMIN_HEALTH_TARGETS) */
  healthTargets?: string[];
  /** the auto-delete sweep's period (default: ADMIN_AUTO_DELETE_INTERVAL_MS, config.ts; 0: never) */
  autoDeleteIntervalMs?: number;
  /** the largest backup an import accepts (default: ADMIN_BACKUP_MAX_BYTES, config.ts) */
  backupMaxBytes?: number;
  /**
   * embedded mode: the event log lives in the same PostgreSQL, so the projection's commits need not wait for the disk
   * (applyOnce flush: false; platform/projection.ts says why that is safe only there). Under load, waiting for the
   * flush per event let the projection fall seconds behind (npm run bench:admin).
   */
  logSharesDatabase?: boolean;
  now?: () => Date;
}

export interface AdminModule {
  context: AdminContext;
  stop(): Promise<void>;
}

export async function startAdminModule(opts: AdminOptions): Promise<AdminModule> {
  const settings = () => adminSettingsFromEnv(); // only when the caller left a setting out (a module started in-process)
  await migrate(opts.databaseUrl, ADMIN_MIGRATIONS, 'admin');
  if (!(await opts.adminKeys.get(ADMIN_AGGREGATE))) await opts.adminKeys.create(ADMIN_AGGREGATE);
  const now = opts.now ?? (() => new Date());
  const accountFields = new AccountFields(opts.keyring);
  const project = adminProjector(accountFields);
  const events = new AdminEvents(opts.pool, opts.log, now, project, opts.logger);
  const context: AdminContext = {
    pool: opts.pool,
    log: opts.log,
    logger: opts.logger,
    events,
    project,
    accountFields,
    accounts: opts.accounts,
    billingSystem: opts.billingSystem,
    rooms: opts.rooms,
    messaging: opts.messaging,
    backupParts: opts.backupParts,
    superadminEmail: opts.superadminEmail?.trim().toLowerCase() || null,
    limits: opts.limits,
    ephemeral: opts.ephemeral,
    backupDir: opts.backupDir,
    backupKey: opts.backupKey,
    now,
    startedAt: now(),
    backupMaxBytes: opts.backupMaxBytes ?? settings().ADMIN_BACKUP_MAX_BYTES,
    eventLogKafka: opts.eventLogKafka,
    healthTargets: opts.healthTargets,
  };
  // Every topic, from the start: the read models are current before we take requests (a replay after a restore).
  const projection: Subscription = await opts.log.subscribe({
    groupId: 'admin-analytics',
    topics: Object.values(TOPICS),
    fromBeginning: true,
    // Nobody waits on these records: the superadmin's own commands are applied on their command path (events.ts),
    // and the dashboard, the directory and the reports may be a second or two behind the chat. So they gather (Kafka:
    // one fetch and one transaction, one commit and one flush, for many messages instead of one each). At 50 sends/s
    // in the W3 bench this consumer cost ~2-3 ms of CPU per message without it
    // (docs/decisions/2026-11-27-admin-analytics-gathers.md).
    gather: true,
    ...projectionHandlers(opts.pool, 'admin', project, { flush: !opts.logSharesDatabase }),
  });
  await projection.caughtUp();
  // The directory's rows and audit entries an earlier version wrote in the clear: sealed before the first request.
  const legacy = await sealLegacyDirectory(opts.pool, accountFields);
  if (legacy.accounts + legacy.auditEntries > 0)
    opts.logger.info(legacy, 'directory: account e-mails and usernames sealed');
  const sweeper = startAutoDeleteSweeper(
    context,
    opts.autoDeleteIntervalMs ?? settings().ADMIN_AUTO_DELETE_INTERVAL_MS,
  ); // the Settings tab's scheduled cleanup
  return {
    context,
    async stop() {
      sweeper.stop();
      await projection.stop();
    },
  };
}
