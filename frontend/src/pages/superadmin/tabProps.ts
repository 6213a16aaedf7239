/** What every tab of the dashboard is given by SuperadminPage. */
import type { ToastApi } from '../../components/overlays/Toast.tsx';
import type { Ask } from './AskDialog.tsx';
import type { AdminData, AdminKey } from './useAdminData.ts';
import type { MessageId } from '../../i18n/i18n.ts';

export interface TabProps {
  data: AdminData;
  reload(keys?: AdminKey[]): Promise<void>;
  ask: Ask;
  toast: ToastApi;
}

export type TabId = 'dashboard' | 'users' | 'rooms' | 'analytics' | 'system' | 'feedback' | 'settings';

/** The tabs in order, each with its label's key. */
export const TABS: readonly { id: TabId; label: MessageId }[] = [
  { id: 'dashboard', label: 'admin.tab.dashboard' },
  { id: 'users', label: 'admin.tab.users' },
  { id: 'rooms', label: 'admin.tab.rooms' },
  { id: 'analytics', label: 'admin.tab.analytics' },
  { id: 'system', label: 'admin.tab.system' },
  { id: 'feedback', label: 'admin.tab.feedback' },
  { id: 'settings', label: 'admin.tab.settings' },
];
