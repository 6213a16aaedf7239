/**
 * The superadmin's API and the admin-analytics service's events (docs/product/admin.md).
 * Identity is the signed-in session of the SUPERADMIN_EMAIL account; x-user-email is never read.
 */
import { z } from 'zod';
import { TierSchema } from './models.ts';
import { CONTACT_STATUSES } from './contact-paths.ts';
import { ADMIN_LIMITS, ADMIN_TEXT } from './admin-paths.ts';

const reason = z.string().trim().min(1, ADMIN_TEXT.reasonRequired).max(500);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are YYYY-MM-DD');

// ---- bodies ----
export const ConfigBodySchema = z
  .object({
    autoDeleteEnabled: z.boolean().optional(),
    autoDeleteDaysAfterGracePeriod: z
      .number(ADMIN_TEXT.autoDeleteDays)
      .int(ADMIN_TEXT.autoDeleteDays)
      .min(ADMIN_LIMITS.autoDelete.minDays, ADMIN_TEXT.autoDeleteDays)
      .max(ADMIN_LIMITS.autoDelete.maxDays, ADMIN_TEXT.autoDeleteDays)
      .optional(),
  })
  .strict();
export const ReasonBodySchema = z.object({ reason });
export const SuspendBodySchema = z
  .object({ suspended: z.boolean(), reason: z.string().trim().max(500).optional() })
  .refine((b) => !b.suspended || (b.reason ?? '').length > 0, { message: ADMIN_TEXT.reasonRequired, path: ['reason'] });
export const AdminUpgradeBodySchema = z.object({
  tier: z.enum(['pro', 'business'], 'Choose pro or business'),
  days: z
    .literal(ADMIN_LIMITS.trialDays, `Admin trials last ${ADMIN_LIMITS.trialDays} days`)
    .default(ADMIN_LIMITS.trialDays),
});
export const AdminExtendRoomBodySchema = z.object({
  hours: z.union([z.literal(168), z.literal(720)], 'Extend by 168 or 720 hours'),
});
export const FeedbackStatusBodySchema = z.object({
  status: z.enum(CONTACT_STATUSES, 'Choose pending, read, responded or archived'),
});
export const MaintenanceBodySchema = z
  .object({ enabled: z.boolean(), message: z.string().trim().max(500).optional() })
  .refine((b) => !b.enabled || (b.message ?? '').length > 0, {
    message: ADMIN_TEXT.maintenanceMessageRequired,
    path: ['message'],
  });
export const CustomRevenueQuerySchema = z
  .object({ startDate: isoDate, endDate: isoDate })
  .refine((q) => q.startDate <= q.endDate, {
    message: 'The start date must not be after the end date',
    path: ['endDate'],
  });
export const PageviewBodySchema = z.object({
  path: z.string().min(1).max(512).startsWith('/'),
  userAgent: z.string().max(512).optional(),
});

// ---- answers (docs/product/admin.md) ----
export interface AdminConfig {
  maintenanceMode: boolean;
  maintenanceMessage: string | null;
  autoDeleteEnabled: boolean;
  autoDeleteDaysAfterGracePeriod: number;
}
export interface MaintenanceState {
  enabled: boolean;
  message: string | null;
}
export interface EligibleUser {
  email: string;
  subscriptionTier: string;
  daysSinceEligible: number;
}
export interface CleanupStatus {
  currentEligibleUsers: number;
  deletedUsersCount: number;
  lastRunAt: string | null;
  lastDeletionCount: number;
  isRunning: boolean;
  eligibleUsers: EligibleUser[];
}
export interface DashboardAnalytics {
  activeUsers: number;
  activeRooms: number;
  conversionRate: number;
  todayRevenue: number;
  pageViewsToday: number;
  uptime: number;
  errorRate: number;
}
export interface AdminUser {
  email: string;
  username: string | null;
  subscriptionTier: z.infer<typeof TierSchema>;
  upgradedByAdmin: boolean;
  paymentStatus: 'active' | 'past_due' | 'cancelled';
  createdAt: string;
  suspended: boolean;
  suspendedReason: string | null;
  trialEndsAt: string | null;
}
export interface AdminRoom {
  id: string;
  name: string;
  owner: string | null;
  userCount: number;
  isActive: boolean;
  expiresAt: string | null;
}
/** one page of a list: `total` rows match the search and filters; `totals` count every row the search matches */
interface AdminPage {
  page: number;
  pageSize: number;
  total: number;
}
export interface AdminUsersPage extends AdminPage {
  users: AdminUser[];
  totals: {
    total: number;
    byTier: { free: number; pro: number; business: number };
    byStatus: { active: number; past_due: number; cancelled: number };
  };
}
export interface AdminRoomsPage extends AdminPage {
  rooms: AdminRoom[];
  totals: { total: number; active: number; expired: number; users: number };
}
export interface ModerationMessage {
  id: string;
  authorName: string;
  username: string;
  channelName: string;
  channelType: 'topic' | 'dm' | 'private';
  isDecrypted: boolean;
  decryptError: string | null;
  timestamp: string;
  content: string;
  type: string;
}
export interface RevenueSplit {
  total: number;
  subscription: number;
  extension: number;
}
export interface AnalyticsReport {
  revenue: {
    monthlyRevenue: number;
    yearlyRevenue: number;
    monthlyGrowthRate: number;
    revenueByPlan: { pro: number; business: number };
    averageLifetimeValue: number;
    subscriptionRevenue: number;
    extensionRevenue: number;
    extensionPaymentCount: number;
    extensionRevenueBreakdown: { sevenDay: number; thirtyDay: number };
    failedPayments: number;
    refunds: number;
  };
  timeBasedRevenue: {
    today: RevenueSplit;
    weekly: RevenueSplit;
    monthly: RevenueSplit;
    allTime: { total: number; paymentCount: number };
  };
  pageViewAnalytics: {
    today: { pageViews: number; uniqueVisitors: number };
    weekly: { pageViews: number; uniqueVisitors: number };
    monthly: { pageViews: number };
  };
  users: {
    byTier: { free: number; pro: number; business: number };
    byStatus: { active: number; past_due: number; cancelled: number };
    total: number;
    newUsersLast30Days: number;
    retentionRate: number;
  };
  usage: {
    dailyActiveUsers: number;
    weeklyActiveUsers: number;
    monthlyActiveUsers: number;
    averageSessionDuration: number;
    featureUsage: { roomsCreated: number; filesUploaded: number; videoCalls: number; messagesExchanged: number };
  };
  system: {
    performance: { averageResponseTime: number; databaseQueryTime: number };
    security: { failedLoginAttempts: number; blockedIPs: string[] };
  };
  /** ours: the last 30 days, one row a day, for the charts */
  daily: Array<{
    date: string;
    revenue: number;
    pageViews: number;
    messages: number;
    activeUsers: number;
    roomsCreated: number;
  }>;
}
export interface DailyRevenue {
  date: string;
  total: number;
  subscription: number;
  extension: number;
  paymentCount: number;
}
export interface CustomRevenue {
  period: { startDate: string; endDate: string; days: number };
  summary: { total: number; subscription: number; extension: number; averagePerDay: number; paymentCount: number };
  dailyBreakdown: DailyRevenue[];
}
export interface StorageUsage {
  databaseSize: number;
  memoryUsage: number;
  backupCount: number;
}
export interface BackupInfo {
  filename: string;
  createdAt: string;
  size: number;
  downloadUrl: string;
}
export interface AuditEntry {
  id: string;
  action: AdminAction;
  target: string | null;
  reason: string | null;
  admin: string;
  at: string;
}

// ---- events (topic admin; aggregate and partition key: ADMIN_AGGREGATE; sealed under its key) ----
export const ADMIN_AGGREGATE = 'admin';
export const ADMIN_ACTIONS = [
  'user.deleted',
  'user.suspended',
  'user.unsuspended',
  'user.upgraded',
  'user.subscription-set',
  'room.extended',
  'room.deleted',
  'room.messages-read',
  'revenue.reset',
  'cleanup.run',
  'database.cleanup',
  'maintenance.changed',
  'config.changed',
  'backup.generated',
  'backup.imported',
  'feedback.status-changed',
  'feedback.deleted',
  'export.downloaded',
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];
/** Every superadmin action, with who did it and why: the audit trail (System tab). */
export const AdminActionRecordedSchema = z.object({
  action: z.enum(ADMIN_ACTIONS),
  target: z.string().nullable(),
  reason: z.string().nullable(),
  admin: z.string(),
  details: z.record(z.string(), z.unknown()).default({}),
  at: z.string(),
});
export const AdminConfigChangedSchema = z.object({
  autoDeleteEnabled: z.boolean(),
  autoDeleteDaysAfterGracePeriod: z.number().int(),
  at: z.string(),
});
export const MaintenanceChangedSchema = z.object({
  enabled: z.boolean(),
  message: z.string().nullable(),
  at: z.string(),
});
/** "Reset Revenue": payments before `before` no longer count in any revenue figure */
export const RevenueResetSchema = z.object({ before: z.string(), deletedRecords: z.number().int().nonnegative() });
/** one page view (POST /api/admin/analytics/pageview), already filtered: no bots, no reload of the same path within the minute */
export const PageViewedSchema = z.object({ path: z.string(), visitor: z.string(), at: z.string() });
