/**
 * The superadmin API (docs/product/admin.md) without zod: paths, limits and texts shared by the
 * admin-analytics service, the ingress, the tests and the browser bundle. Bodies, answers and events: admin.ts.
 */
/** The ingress sends /api/admin/ to admin-analytics (as /api/auth/ to billing). */
export const ADMIN_PREFIX = '/api/admin/';
const e = encodeURIComponent;
export const ADMIN_API = {
  config: '/api/admin/config',
  cleanupStatus: '/api/admin/cleanup/status',
  cleanupRun: '/api/admin/cleanup/run',
  databaseCleanup: '/api/admin/maintenance/cleanup',
  dashboard: '/api/admin/analytics/dashboard',
  report: '/api/admin/analytics/report',
  customRevenue: (startDate: string, endDate: string) =>
    `/api/admin/analytics/revenue/custom?startDate=${e(startDate)}&endDate=${e(endDate)}`,
  resetRevenue: '/api/admin/analytics/reset-revenue',
  pageview: '/api/admin/analytics/pageview',
  users: '/api/admin/users',
  user: (email: string) => `/api/admin/users/${e(email)}`,
  suspendUser: (email: string) => `/api/admin/users/${e(email)}/suspend`,
  userSubscription: (email: string) => `/api/admin/users/${e(email)}/subscription`,
  adminUpgrade: (email: string) => `/api/admin/users/${e(email)}/admin-upgrade`,
  rooms: '/api/admin/rooms',
  room: (id: string) => `/api/admin/rooms/${e(id)}`,
  extendRoom: (id: string) => `/api/admin/rooms/${e(id)}/extend`,
  roomMessages: (id: string, limit = 50) => `/api/admin/rooms/${e(id)}/messages?limit=${limit}`,
  feedback: '/api/admin/feedback',
  feedbackStatus: (id: string) => `/api/admin/feedback/${e(id)}/status`,
  feedbackItem: (id: string) => `/api/admin/feedback/${e(id)}`,
  storageUsage: '/api/admin/storage-usage',
  backupList: '/api/admin/backup/list',
  backupGenerate: '/api/admin/backup/generate',
  backupImport: '/api/admin/backup/import',
  backupDownload: (filename: string) => `/api/admin/backup/download/${e(filename)}`,
  export: (kind: 'users' | 'analytics') => `/api/admin/export/${kind}`,
  maintenance: '/api/admin/maintenance',
  /** ours: the audit trail of superadmin actions (the System tab) */
  audit: '/api/admin/audit',
  /** ours: the maintenance banner's state, readable by every visitor (GET, never refused) */
  maintenanceStatus: '/api/maintenance',
} as const;

/** docs/product/limits.md L2, admin.md */
export const ADMIN_LIMITS = {
  tableRows: 50,
  moderationMessages: 50,
  trialDays: 30,
  extendHours: [168, 720] as const,
  /** a backup is deleted from the backup directory this many days after it was made (docs/product/admin.md ADM9) */
  backupRetentionDays: 30,
  autoDelete: { graceDays: 7, minDays: 1, maxDays: 1000, defaultDays: 90 },
  quickRevenueMonths: 6,
  /** the shortest search of account e-mails and usernames: they are searched by three-character runs (administration.md) */
  accountSearchMin: 3,
  /** the longest search text */
  searchMax: 100,
} as const;

/** The Users and Rooms tabs' filters (admin.md ADM4, ADM6), as the list routes take them (?tier= ?status=). */
export const ADMIN_FILTERS = {
  tier: ['free', 'pro', 'business'],
  paymentStatus: ['active', 'past_due', 'cancelled'],
  roomStatus: ['active', 'expired'],
} as const;

/** the longest custom revenue period in days (a leap year) */
export const CUSTOM_REVENUE_MAX_DAYS = 366;

/** the texts the dashboard shows (docs/product/admin.md) */
export const ADMIN_TEXT = {
  unauthorized: 'Unauthorized: Superadmin access required',
  maintenanceDefault: 'System is under maintenance. Please try again later.',
  cleanupConfirm: 'This will clean up expired data. Continue?',
  resetRevenueConfirm:
    'Are you sure you want to reset all revenue analytics to $0? This will delete all payment records and cannot be undone.',
  feedbackDeleteConfirm: 'Are you sure you want to delete this feedback message?',
  reasonRequired: 'A reason is required',
  maintenanceMessageRequired: 'A maintenance message is required',
  autoDeleteDays: 'Days must be a whole number from 1 to 1000',
} as const;

/** Where the dashboard lives: "a hidden, obscure path" (the server checks the session on every call regardless). */
export const ADMIN_PAGE_PATH = '/ops-console-7f3a';
