/** The Export Users (CSV) and Export Analytics (JSON) downloads: file named {kind}-export-{date} (docs/product/admin.md ADM3). */
import { ADMIN_API, adminDownload } from '../../lib/adminApi.ts';
import type { ToastApi } from '../../components/overlays/Toast.tsx';
import { todayIso } from './format.ts';
import { t } from '../../i18n/i18n.ts';

export async function exportData(kind: 'users' | 'analytics', toast: ToastApi): Promise<void> {
  const ok = await adminDownload(
    ADMIN_API.export(kind),
    `${kind}-export-${todayIso()}.${kind === 'users' ? 'csv' : 'json'}`,
  );
  if (!ok) toast.error(t('admin.exportFailed'));
}
