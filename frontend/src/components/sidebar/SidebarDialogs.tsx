/**
 * The sidebar's dialogs (docs/product/rooms.md R16-R19): delete a DM or a channel, a channel's members, the new-DM
 * confirm and Edit Profile. Each loads on first use, so the room page's initial JavaScript stays small.
 */
import { lazy, Suspense } from 'react';
import type { RoomState } from '../../state/roomState.ts';
import type { RoomSession } from '../../lib/session.ts';

const DeleteConversationModal = lazy(() =>
  import('./ConfirmModals.tsx').then((m) => ({ default: m.DeleteConversationModal })),
);
const DeleteChannelModal = lazy(() => import('./ConfirmModals.tsx').then((m) => ({ default: m.DeleteChannelModal })));
const StartDmModal = lazy(() => import('./ConfirmModals.tsx').then((m) => ({ default: m.StartDmModal })));
const ChannelMembersModal = lazy(() =>
  import('./ChannelMembersModal.tsx').then((m) => ({ default: m.ChannelMembersModal })),
);
const EditProfileModal = lazy(() => import('./EditProfileModal.tsx').then((m) => ({ default: m.EditProfileModal })));

/** the dialog the sidebar has open */
export type SidebarDialog =
  | { kind: 'deleteDm'; channelId: string; name: string }
  | { kind: 'deleteChannel'; channelId: string; name: string }
  | { kind: 'members'; channelId: string }
  | { kind: 'startDm'; userId: string; username: string }
  | { kind: 'profile' };

interface Props {
  dialog: SidebarDialog | null;
  onClose(): void;
  state: RoomState;
  session: RoomSession;
  /** the channel dialogs are for those who manage channels (the server checks again) */
  canManage: boolean;
}

export function SidebarDialogs({ dialog, onClose, state, session, canManage }: Props) {
  const { workspace, user } = state;
  const membersChannel = dialog?.kind === 'members' ? state.channels.find((c) => c.id === dialog.channelId) : undefined;
  return (
    <Suspense fallback={null}>
      {dialog?.kind === 'deleteDm' && (
        <DeleteConversationModal
          name={dialog.name}
          onClose={onClose}
          onConfirm={() => session.deleteDm(dialog.channelId)}
        />
      )}
      {dialog?.kind === 'deleteChannel' && canManage && (
        <DeleteChannelModal
          name={dialog.name}
          onClose={onClose}
          onConfirm={() => session.deleteChannel(dialog.channelId)}
        />
      )}
      {membersChannel && canManage && (
        <ChannelMembersModal
          channel={membersChannel}
          users={workspace?.users ?? []}
          selfId={user?.id ?? null}
          onClose={onClose}
          onSave={(add, remove) => session.updateChannelMembers(membersChannel.id, add, remove)}
        />
      )}
      {dialog?.kind === 'startDm' && (
        <StartDmModal username={dialog.username} onClose={onClose} onConfirm={() => session.startDm(dialog.userId)} />
      )}
      {dialog?.kind === 'profile' && user && (
        <EditProfileModal
          username={user.username}
          onClose={onClose}
          onSave={(u, p) => session.updateProfile(u, p)}
          fileAccess={session.fileAccess()}
        />
      )}
    </Suspense>
  );
}
