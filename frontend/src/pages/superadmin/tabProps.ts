/** What every tab of the dashboard is given by SuperadminPage. */
import type { ToastApi } from '../../components/overlays/Toast.tsx';
import type { Ask } from './AskDialog.tsx';
import type { AdminData, AdminKey } from './useAdminData.ts';

export interface TabProps {
  data: AdminData;
  reload(keys?: AdminKey[]): Promise<void>;
  ask: Ask;
  toast: ToastApi;
}

export const TABS = [
  { id: 'dashboard', label: 'Dashboard' },
  { id: 'users', label: 'Users' },
  { id: 'rooms', label: 'Rooms' },
  { id: 'analytics', label: 'Analytics' },
  { id: 'system', label: 'System' },
  { id: 'feedback', label: 'Feedback' },
  { id: 'settings', label: 'Settings' },
] as const;
export type TabId = (typeof TABS)[number]['id'];
