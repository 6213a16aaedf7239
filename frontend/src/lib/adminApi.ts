/**
 * The superadmin's calls (docs/product/admin.md). Every admin call carries the signed-in account's
 * Bearer session token (lib/account.ts); the server decides on that alone. x-user-email is sent because the spec
 * says so; the server never reads it (docs/product/security.md S1). The calls every visitor makes: lib/visitorCalls.ts.
 */
import { ADMIN_API } from '@ephemera/proto/client';
import type {
  AdminConfig,
  AdminRoomsPage,
  AdminUsersPage,
  AnalyticsReport,
  AuditEntry,
  BackupInfo,
  CleanupStatus,
  ContactMessageView,
  CustomRevenue,
  DashboardAnalytics,
  MaintenanceState,
  ModerationMessage,
  StorageUsage,
} from '@ephemera/proto';
import { readAccount } from './account.ts';

export { ADMIN_API, ADMIN_FILTERS, ADMIN_LIMITS, ADMIN_TEXT, ADMIN_PAGE_PATH } from '@ephemera/proto/client';

export type AdminResult<T> =
  | { ok: true; status: number; data: T; response: Response }
  /** status 0: the call never got an answer (network error) */
  | { ok: false; status: number; code: string | null; message: string | null };

/** Listeners of answers every page cares about: 403 SUPERADMIN_REQUIRED (leave the page), 503 MAINTENANCE (banner). */
type AnswerWatcher = (answer: { status: number; code: string | null; message: string | null }) => void;
const watchers = new Set<AnswerWatcher>();
export function watchAdminAnswers(w: AnswerWatcher): () => void {
  watchers.add(w);
  return () => {
    watchers.delete(w);
  };
}

interface CallInit {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  form?: FormData;
}

export async function adminCall<T>(path: string, init: CallInit = {}): Promise<AdminResult<T>> {
  const account = readAccount();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (account) {
    headers.Authorization = `Bearer ${account.token}`;
    headers['x-user-email'] = account.user.email;
  }
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? (init.body === undefined && !init.form ? 'GET' : 'POST'),
      headers,
      credentials: 'same-origin',
      body: init.form ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    });
  } catch {
    return { ok: false, status: 0, code: null, message: null };
  }
  if (response.ok) {
    const type = response.headers.get('content-type') ?? '';
    const data = type.includes('application/json')
      ? await response
          .clone()
          .json()
          .catch(() => ({}))
      : {};
    return { ok: true, status: response.status, data: data as T, response };
  }
  const err = (await response.json().catch(() => ({}))) as { code?: unknown; message?: unknown };
  const failed = {
    status: response.status,
    code: typeof err.code === 'string' ? err.code : null,
    message: typeof err.message === 'string' && err.message ? err.message : null,
  };
  for (const w of watchers) w(failed);
  return { ok: false, ...failed };
}

/**
 * A list answer: the array itself or `{ [key]: array }` (the admin API names only "returns users"; both shapes are read
 * so the page does not depend on an envelope proto/src/admin.ts does not fix).
 */
export function listOf<T>(data: unknown, key: string): T[] {
  if (Array.isArray(data)) return data as T[];
  const inner = (data as Record<string, unknown> | null)?.[key];
  return Array.isArray(inner) ? (inner as T[]) : [];
}

export interface FeedbackAnswer {
  messages: ContactMessageView[];
  counts?: { total: number; pending: number; read: number; responded: number; archived: number };
}

/** a list's query (search, filters, page): the parameters that have a value */
export type ListQuery = Record<string, string | number | undefined>;
function withQuery(path: string, query: ListQuery): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

const put = (body: unknown) => ({ method: 'PUT' as const, body });
const del = (body?: unknown) => ({ method: 'DELETE' as const, body });

export const adminApi = {
  config: () => adminCall<AdminConfig>(ADMIN_API.config),
  updateConfig: (body: { autoDeleteEnabled?: boolean; autoDeleteDaysAfterGracePeriod?: number }) =>
    adminCall<AdminConfig>(ADMIN_API.config, put(body)),
  cleanupStatus: () => adminCall<CleanupStatus>(ADMIN_API.cleanupStatus),
  cleanupRun: () => adminCall<{ deletedCount?: number }>(ADMIN_API.cleanupRun, { body: {} }),
  databaseCleanup: () => adminCall<unknown>(ADMIN_API.databaseCleanup, { body: {} }),
  dashboard: () => adminCall<DashboardAnalytics>(ADMIN_API.dashboard),
  report: () => adminCall<AnalyticsReport>(ADMIN_API.report),
  customRevenue: (startDate: string, endDate: string) =>
    adminCall<CustomRevenue>(ADMIN_API.customRevenue(startDate, endDate)),
  resetRevenue: () => adminCall<{ deletedRecords: number }>(ADMIN_API.resetRevenue, { body: {} }),
  users: (query: ListQuery = {}) => adminCall<AdminUsersPage>(withQuery(ADMIN_API.users, query)),
  deleteUser: (email: string, reason: string) => adminCall<unknown>(ADMIN_API.user(email), del({ reason })),
  suspendUser: (email: string, suspended: boolean, reason: string) =>
    adminCall<unknown>(ADMIN_API.suspendUser(email), { body: { suspended, reason } }),
  adminUpgrade: (email: string, tier: 'pro' | 'business') =>
    adminCall<unknown>(ADMIN_API.adminUpgrade(email), { body: { tier, days: 30 } }),
  rooms: (query: ListQuery = {}) => adminCall<AdminRoomsPage>(withQuery(ADMIN_API.rooms, query)),
  deleteRoom: (id: string, reason: string) => adminCall<unknown>(ADMIN_API.room(id), del({ reason })),
  extendRoom: (id: string, hours: 168 | 720) => adminCall<unknown>(ADMIN_API.extendRoom(id), { body: { hours } }),
  roomMessages: (id: string) =>
    adminCall<{ messages: ModerationMessage[] } | ModerationMessage[]>(ADMIN_API.roomMessages(id)),
  feedback: () => adminCall<FeedbackAnswer | ContactMessageView[]>(ADMIN_API.feedback),
  feedbackStatus: (id: string, status: string) => adminCall<unknown>(ADMIN_API.feedbackStatus(id), put({ status })),
  deleteFeedback: (id: string) => adminCall<unknown>(ADMIN_API.feedbackItem(id), del()),
  storage: () => adminCall<StorageUsage>(ADMIN_API.storageUsage),
  backups: () => adminCall<{ backups: BackupInfo[] } | BackupInfo[]>(ADMIN_API.backupList),
  generateBackup: () => adminCall<{ backup?: BackupInfo }>(ADMIN_API.backupGenerate, { body: {} }),
  importBackup: (file: File) => {
    const form = new FormData();
    form.append('backup', file, file.name);
    return adminCall<unknown>(ADMIN_API.backupImport, { form });
  },
  maintenance: (enabled: boolean, message: string | null) =>
    adminCall<MaintenanceState>(ADMIN_API.maintenance, { body: enabled ? { enabled, message } : { enabled } }),
  audit: () => adminCall<{ entries: AuditEntry[] } | AuditEntry[]>(ADMIN_API.audit),
};

/** The file name of a download: the server's Content-Disposition, else the fallback. */
export function downloadName(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      /* fall through */
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || fallback;
}

/** GET a file with the admin's token and hand it to the browser as a download. */
export async function adminDownload(path: string, fallbackName: string): Promise<boolean> {
  const r = await adminCall<unknown>(path);
  if (!r.ok) return false;
  const blob = await r.response.blob().catch(() => null);
  if (!blob) return false;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = downloadName(r.response, fallbackName);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return true;
}
