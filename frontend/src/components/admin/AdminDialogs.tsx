/**
 * The open administration dialog, wired to the session's commands (loaded on first use, beside the settings
 * panel: the room page's initial JavaScript stays small).
 */
import type { RoomSession } from '../../lib/session.ts';
import type { RoomState } from '../../state/roomState.ts';
import type { RoomThemeControl, AppliedTheme } from '../../hooks/useRoomTheme.ts';
import { readCustomTheme } from '../../lib/roomPrefs.ts';
import { DeleteRoomModal, KickUserModal, MaxUsersModal, UpgradeModal } from './AdminModals.tsx';
import { PasswordModal } from './PasswordModal.tsx';
import { ExtendModal } from './ExtendModal.tsx';
import { ClaimRoomModal } from './ClaimRoomModal.tsx';
import { PlansModal } from './PlansModal.tsx';
import { CustomThemeModal, ThemeModal } from './ThemeModal.tsx';
import type { AdminDialog } from './adminDialog.ts';

interface Props {
  dialog: AdminDialog;
  state: RoomState;
  session: RoomSession;
  theme: RoomThemeControl;
  open(d: AdminDialog): void;
  close(): void;
}

export function AdminDialogs({ dialog, state, session, theme, open, close }: Props) {
  const ws = state.workspace;
  const user = state.user;
  if (!ws) return null;
  const { admin } = session;
  const canBroadcast = Boolean(user && (user.isAdmin || user.isOwner || user.id === ws.createdBy));
  const apply = async (t: AppliedTheme) => {
    if (canBroadcast) {
      const r = await admin.broadcastTheme(t.themeId, t.custom);
      if (!r.ok) return r;
    }
    theme.choose(t);
    return { ok: true as const };
  };

  switch (dialog.kind) {
    case 'password':
      return (
        <PasswordModal isProtected={ws.isPasswordProtected} onClose={close} setPassword={(p) => admin.setPassword(p)} />
      );
    case 'maxUsers':
      return (
        <MaxUsersModal
          tier={ws.tier}
          current={ws.settings.customMaxUsers ?? ws.settings.maxUsers}
          onClose={close}
          setMaxUsers={(n) => admin.setMaxUsers(n)}
        />
      );
    case 'extend':
      return (
        <ExtendModal
          tier={ws.tier}
          expiresAt={ws.expiresAt}
          roomName={ws.name}
          workspaceId={ws.id}
          onClose={close}
          extend={(d) => admin.extend(d)}
        />
      );
    case 'deleteRoom':
      return <DeleteRoomModal roomName={ws.name} onClose={close} deleteRoom={() => admin.deleteWorkspace()} />;
    case 'kick':
      return <KickUserModal username={dialog.username} onClose={close} kick={() => admin.kickUser(dialog.userId)} />;
    case 'claim':
      return (
        <ClaimRoomModal
          workspaceId={ws.id}
          roomName={ws.name}
          username={user?.username ?? ''}
          outcome={dialog.outcome}
          onClose={close}
        />
      );
    case 'plans':
      return (
        <PlansModal
          tier={ws.tier}
          roomName={ws.name}
          guestOwner={Boolean(user?.isOwner)}
          onClaim={() => open({ kind: 'claim' })}
          onClose={close}
        />
      );
    case 'upgrade':
      return <UpgradeModal feature={dialog.feature} tier={ws.tier} onClose={close} />;
    case 'theme':
      return (
        <ThemeModal
          tier={ws.tier}
          active={theme.active}
          canBroadcast={canBroadcast}
          preview={theme.setPreview}
          apply={apply}
          onUpgrade={(feature) => open({ kind: 'upgrade', feature })}
          onCustomize={() => open({ kind: 'customTheme' })}
          onClose={close}
        />
      );
    case 'customTheme':
      if (ws.tier !== 'business') return <UpgradeModal feature="customTheme" tier={ws.tier} onClose={close} />;
      return (
        <CustomThemeModal
          initial={theme.active.themeId === 'custom' && theme.active.custom ? theme.active.custom : readCustomTheme()}
          canBroadcast={canBroadcast}
          preview={theme.setPreview}
          apply={apply}
          onClose={close}
        />
      );
  }
}
