/**
 * The sidebar's header (docs/product/rooms.md R15): the logo (or the custom theme's), the room's name, plan and
 * counters (RoomHeader.tsx), and the tools: sound, notifications, a signed-in user's dashboard button (opens
 * /dashboard in a new tab) and the settings button.
 */
import { lazy, Suspense, useState } from 'react';
import type { Tier } from '@ephemera/proto/client';
import type { RoomState } from '../../state/roomState.ts';
import type { RoomSession } from '../../lib/session.ts';
import { hasAccountSession } from '../../lib/roomPrefs.ts';
import type { AdminDialog } from '../admin/adminDialog.ts';
import { AppLink } from '../AppLink.tsx';
import { SoundToggle } from '../SoundToggle.tsx';
import { LogoMark } from '../Icons.tsx';
import { RoomHeader } from './RoomHeader.tsx';
import { DashboardIcon, GearIcon } from './icons.tsx';
import { useT } from '../../i18n/i18n.ts';

// loads on first render, apart from the room page's initial JavaScript
const NotificationToggle = lazy(() =>
  import('../NotificationToggle.tsx').then((m) => ({ default: m.NotificationToggle })),
);

interface Props {
  state: RoomState;
  session: RoomSession;
  /** the room's name (the workspace's, else the one the room was opened with) */
  name: string;
  tier: Tier;
  canRename: boolean;
  onAdminDialog(d: AdminDialog): void;
  onToggleSettings(): void;
  /** the custom theme's logo (business), shown in place of ours: the server-signed same-origin image-proxy path */
  logoSrc?: string;
}

export function SidebarHeader({
  state,
  session,
  name,
  tier,
  canRename,
  onAdminDialog,
  onToggleSettings,
  logoSrc,
}: Props) {
  const t = useT();
  const { workspace } = state;
  // the dashboard button is for signed-in users (a guest has no dashboard); read once, as the room opens
  const [signedIn] = useState(() => hasAccountSession());
  return (
    <div className="sidebar-header">
      <AppLink href="/" className="sidebar-logo" aria-label={t('common.nav.home')}>
        {logoSrc ? (
          <img src={logoSrc} alt="" className="custom-logo" width={100} height={25} data-testid="custom-logo" />
        ) : (
          <LogoMark size={28} />
        )}
      </AppLink>
      <RoomHeader
        name={name}
        tier={tier}
        online={state.onlineCount}
        maxUsers={workspace?.settings?.maxUsers}
        isPasswordProtected={Boolean(workspace?.isPasswordProtected)}
        expiresAt={workspace?.expiresAt ?? null}
        canRename={canRename}
        rename={(n) => session.admin.renameWorkspace(n)}
        notice={(m) => session.showNotice(m)}
        onUpgrade={() => onAdminDialog({ kind: 'plans' })}
      />
      <div className="sidebar-tools">
        <SoundToggle />
        <Suspense fallback={null}>
          <NotificationToggle />
        </Suspense>
        {signedIn && (
          <a
            href="/dashboard"
            target="_blank"
            rel="noopener"
            className="icon-button icon-button-dark"
            aria-label={t('roomside.sidebar.dashboardNewTab')}
            title={t('roomside.sidebar.dashboard')}
            data-testid="dashboard-button"
          >
            <DashboardIcon size={18} />
          </a>
        )}
        <button
          type="button"
          className="icon-button icon-button-dark"
          onClick={onToggleSettings}
          aria-label={t('roomside.sidebar.settings')}
          title={t('roomside.sidebar.settingsShortcut')}
          data-testid="settings-button"
        >
          <GearIcon size={18} />
        </button>
      </div>
    </div>
  );
}
