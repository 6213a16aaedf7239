/** What every part of the admin-analytics service is given (built once by module.ts). */
import type {
  AdminAccountsApi,
  AdminBillingSystemApi,
  AdminMessagingApi,
  AdminRoomsApi,
  BackupPartApi,
  BackupPartName,
} from '@ephemera/proto';
import type { EventLog, Logger, Pool, Projector, RateLimits, EphemeralStore } from '@ephemera/platform';
import type { AdminEvents } from './events.ts';
import type { AccountFields } from './account-fields.ts';

export interface AdminContext {
  pool: Pool;
  log: EventLog;
  logger: Logger;
  /** records admin-topic events (the audit trail, configuration, page views) and applies them here at once */
  events: AdminEvents;
  /** the read models' projector (projection.ts), for the consumer and a backup's replay */
  project: Projector;
  /** accounts' e-mails and usernames: sealed under each account's key in admin.accounts, opened to answer */
  accountFields: AccountFields;
  /** billing: sessions and the actions on accounts */
  accounts: AdminAccountsApi;
  /** billing: feedback, inactive accounts, cleanup, failed sign-ins */
  billingSystem: AdminBillingSystemApi;
  /** room: extend and delete */
  rooms: AdminRoomsApi;
  /** messaging: the moderation viewer */
  messaging: AdminMessagingApi;
  /** room, messaging, billing: each one's part of the service backup (backup/backups.ts) */
  backupParts?: Record<BackupPartName, BackupPartApi>;
  /** SUPERADMIN_EMAIL, lower-cased; null: nobody is superadmin (every admin call is refused) */
  superadminEmail: string | null;
  limits: RateLimits;
  /** Redis (distributed) or memory (embedded): short-lived state such as the page-view reload filter */
  ephemeral: EphemeralStore;
  /** where backups are written (BACKUP_DIR; embedded: DATA_DIR/backups) */
  backupDir: string;
  /** the key that encrypts backups (derived from the master key) */
  backupKey: Buffer;
  /** ADMIN_BACKUP_MAX_BYTES: the largest backup an import accepts */
  backupMaxBytes: number;
  now: () => Date;
  /** when this process started (uptime) */
  startedAt: Date;
  /** distributed mode: where the Kafka event log is (backups record the consumer group's committed offsets) */
  eventLogKafka?: { brokers: string[]; namespace?: string };
  /** distributed mode: the other services' /metrics (ADMIN_HEALTH_TARGETS: System Health counts their answers and uptime) */
  healthTargets?: string[];
}
