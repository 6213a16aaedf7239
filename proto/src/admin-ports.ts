/**
 * What admin-analytics asks the other services (their commands: each owner records its own events). Embedded mode
 * passes the services' implementations; distributed mode calls them over internal routes (platform internal-rpc:
 * POST {prefix}/{method}), the owner mounting internalRpcRouter(impl, prefix, methods).
 */
import type { SessionAccount } from './accounts.ts';
import type { Tier } from './limits.ts';
import type { ContactCounts, ContactMessageView, ContactStatus } from './contact.ts';
import type { EligibleUser, ModerationMessage } from './admin.ts';

/** billing: the superadmin's actions on accounts (users tab) */
export interface AdminAccountsApi {
  resolveSession(input: { token: string }): Promise<SessionAccount | null>;
  /** a suspended account cannot sign in (its sessions are revoked) or open rooms from the dashboard until unsuspended */
  suspendAccount(input: { email: string; suspended: boolean; reason: string | null }): Promise<{ accountId: string }>;
  /** as the account's own deletion: its rooms are deleted (keys destroyed), then its key */
  deleteAccountByAdmin(input: {
    email: string;
    reason: string;
  }): Promise<{ accountId: string; deletedRooms: string[] }>;
  /** a 30-day trial of pro or business, marked upgradedByAdmin; the account's rooms take the tier */
  grantAdminTrial(input: {
    email: string;
    tier: Exclude<Tier, 'free'>;
    days: number;
  }): Promise<{ accountId: string; until: string }>;
  /** ends the account's admin trial now (PUT .../subscription {subscriptionTier: 'free'}): back to free, its rooms too */
  endAdminTrial(input: { email: string }): Promise<{ accountId: string; tier: Tier }>;
}
export const ADMIN_ACCOUNTS_PREFIX = '/internal/admin/accounts';
export const ADMIN_ACCOUNTS_METHODS = [
  'resolveSession',
  'suspendAccount',
  'deleteAccountByAdmin',
  'grantAdminTrial',
  'endAdminTrial',
] as const satisfies readonly (keyof AdminAccountsApi)[];

/** billing: what the System, Feedback and Settings tabs need of it */
export interface AdminBillingSystemApi {
  feedbackList(input: { limit?: number }): Promise<{ messages: ContactMessageView[]; counts: ContactCounts }>;
  feedbackSetStatus(input: { id: string; status: ContactStatus }): Promise<{ id: string; status: ContactStatus }>;
  feedbackDelete(input: { id: string }): Promise<{ id: string }>;
  /** auto-delete: accounts with no sign-in or activity for graceDays + days (the superadmin's own never) */
  inactiveAccounts(input: { graceDays: number; days: number }): Promise<Array<EligibleUser & { accountId: string }>>;
  /** expired sign-in codes, revoked and expired sessions, old webhook ids: the Database Cleanup quick action */
  cleanupExpired(input: Record<string, never>): Promise<{ removed: number }>;
  /** failed sign-ins (wrong codes) since a time, for the System tab's security figures */
  failedSignIns(input: { since: string }): Promise<{ count: number }>;
}
export const ADMIN_BILLING_SYSTEM_PREFIX = '/internal/admin/billing-system';
export const ADMIN_BILLING_SYSTEM_METHODS = [
  'feedbackList',
  'feedbackSetStatus',
  'feedbackDelete',
  'inactiveAccounts',
  'cleanupExpired',
  'failedSignIns',
] as const satisfies readonly (keyof AdminBillingSystemApi)[];

/** room: the superadmin's actions on rooms (rooms tab) */
export interface AdminRoomsApi {
  extendByAdmin(input: {
    workspaceId: string;
    hours: 168 | 720;
  }): Promise<{ workspaceId: string; expiresAt: string | null }>;
  deleteByAdmin(input: { workspaceId: string; reason: string }): Promise<{ workspaceId: string }>;
}
export const ADMIN_ROOMS_PREFIX = '/internal/admin/rooms';
export const ADMIN_ROOMS_METHODS = [
  'extendByAdmin',
  'deleteByAdmin',
] as const satisfies readonly (keyof AdminRoomsApi)[];

/** messaging: the moderation viewer (decrypted with the room's key; a message that does not open: decryptError) */
export interface AdminMessagingApi {
  moderationMessages(input: { workspaceId: string; limit: number }): Promise<ModerationMessage[]>;
}
export const ADMIN_MESSAGING_PREFIX = '/internal/admin/messaging';
export const ADMIN_MESSAGING_METHODS = ['moderationMessages'] as const satisfies readonly (keyof AdminMessagingApi)[];
