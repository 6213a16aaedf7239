/**
 * The page's nine resources (docs/product/admin.md ADM2): config, cleanup status, dashboard analytics,
 * users, rooms, report, feedback, storage and backups, fetched in parallel; each is used only if its answer is ok
 * (a resource whose call fails stays as it was: null on the first load). `reload(keys)` refetches some of them after
 * an action.
 */
import { useCallback, useState } from 'react';
import type {
  AdminConfig,
  AdminRoomsPage,
  AdminUsersPage,
  AnalyticsReport,
  BackupInfo,
  CleanupStatus,
  ContactMessageView,
  DashboardAnalytics,
  StorageUsage,
} from '@ephemera/proto';
import { adminApi, listOf, type AdminResult, type FeedbackAnswer } from '../../lib/adminApi.ts';

export interface FeedbackData {
  messages: ContactMessageView[];
  counts: { total: number; pending: number; read: number; responded: number; archived: number };
}
export interface AdminData {
  config: AdminConfig | null;
  cleanup: CleanupStatus | null;
  dashboard: DashboardAnalytics | null;
  /** the first page of each list as the page loads it; the tabs ask for the pages they show (usePagedList.ts) */
  users: AdminUsersPage | null;
  rooms: AdminRoomsPage | null;
  report: AnalyticsReport | null;
  feedback: FeedbackData | null;
  storage: StorageUsage | null;
  backups: BackupInfo[] | null;
}
export type AdminKey = keyof AdminData;
export const ALL_KEYS: AdminKey[] = [
  'config',
  'cleanup',
  'dashboard',
  'users',
  'rooms',
  'report',
  'feedback',
  'storage',
  'backups',
];
const EMPTY: AdminData = {
  config: null,
  cleanup: null,
  dashboard: null,
  users: null,
  rooms: null,
  report: null,
  feedback: null,
  storage: null,
  backups: null,
};

/** The counts are the server's when it sends them, else counted from the list. */
export function feedbackOf(data: FeedbackAnswer | ContactMessageView[]): FeedbackData {
  const messages = listOf<ContactMessageView>(data, 'messages');
  const counted = { total: messages.length, pending: 0, read: 0, responded: 0, archived: 0 };
  for (const m of messages) if (m.status in counted) counted[m.status] += 1;
  const counts = !Array.isArray(data) && data.counts ? data.counts : counted;
  return { messages, counts };
}

const LOADERS: { [K in AdminKey]: () => Promise<AdminResult<unknown>> } = {
  config: adminApi.config,
  cleanup: adminApi.cleanupStatus,
  dashboard: adminApi.dashboard,
  users: () => adminApi.users(),
  rooms: () => adminApi.rooms(),
  report: adminApi.report,
  feedback: adminApi.feedback,
  storage: adminApi.storage,
  backups: adminApi.backups,
};
const SHAPE: { [K in AdminKey]: (data: unknown) => AdminData[K] } = {
  config: (d) => d as AdminConfig,
  cleanup: (d) => d as CleanupStatus,
  dashboard: (d) => d as DashboardAnalytics,
  users: (d) => d as AdminUsersPage,
  rooms: (d) => d as AdminRoomsPage,
  report: (d) => d as AnalyticsReport,
  feedback: (d) => feedbackOf(d as FeedbackAnswer),
  storage: (d) => d as StorageUsage,
  backups: (d) => listOf<BackupInfo>(d, 'backups'),
};

export function useAdminData() {
  const [data, setData] = useState<AdminData>(EMPTY);
  const [loading, setLoading] = useState(false);
  const reload = useCallback(async (keys: AdminKey[] = ALL_KEYS) => {
    setLoading(true);
    const answers = await Promise.all(keys.map((k) => LOADERS[k]()));
    setData((prev) => {
      const next = { ...prev };
      keys.forEach((k, i) => {
        const a = answers[i]!;
        if (a.ok) (next as Record<AdminKey, unknown>)[k] = SHAPE[k](a.data);
      });
      return next;
    });
    setLoading(false);
  }, []);
  return { data, loading, reload };
}
