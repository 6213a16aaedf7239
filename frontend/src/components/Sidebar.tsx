/**
 * The room's sidebar (docs/product/rooms.md R15-R19): header (a signed-in user's dashboard button opens /dashboard
 * in a new tab), search, conversation list (channels and DMs),
 * Available to message, invite card and the user footer with the status menu (Online, Busy) and Edit Profile.
 * Also sets the user's presence from the tab's visibility and focus (sidebar/presence.ts) while the room is open.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { registerFileAccess } from '../lib/fileLinks.ts';
import type { RoomState } from '../state/roomState.ts';
import type { RoomSession } from '../lib/session.ts';
import { availableToMessage, conversationList, dmWith } from '../state/conversationSelectors.ts';
import { canManageChannels, roleOf } from '../lib/format.ts';
import { adminControls } from '../lib/roomRules.ts';
import { hasAccountSession } from '../lib/roomPrefs.ts';
import type { PersonView } from '../state/conversationSelectors.ts';
import type { MenuEntry } from './ui/Menu.tsx';
import type { AdminDialog } from './admin/adminDialog.ts';
import { RoomHeader } from './sidebar/RoomHeader.tsx';
import { AppLink } from './AppLink.tsx';
import { SoundToggle } from './SoundToggle.tsx';
import { ChannelList, type ConversationActions } from './ChannelList.tsx';
import { InviteCard } from './InviteCard.tsx';
import { LogOutIcon, LogoMark, PlusIcon } from './Icons.tsx';
import { AvailableToMessage } from './sidebar/AvailableToMessage.tsx';
import { SidebarSearchInput, SidebarSearchResults } from './sidebar/SidebarSearch.tsx';
import { StatusMenu } from './sidebar/StatusMenu.tsx';
import { DashboardIcon, GearIcon, PencilIcon, TrashIcon, UserPlusIcon } from './sidebar/icons.tsx';
import { usePresenceTracker } from './sidebar/presence.ts';
import { useT, type MessageId } from '../i18n/i18n.ts';
import './sidebar/sidebar.css';

/** the role badge's words (roleOf gives the English role, which also names its CSS class) */
const ROLE_TEXT = {
  Owner: 'roomside.role.owner',
  Admin: 'roomside.role.admin',
  Member: 'roomside.role.member',
} as const satisfies Record<string, MessageId>;

// The sidebar's dialogs load on first use (the room page's initial JavaScript stays small).
const DeleteConversationModal = lazy(() =>
  import('./sidebar/ConfirmModals.tsx').then((m) => ({ default: m.DeleteConversationModal })),
);
const DeleteChannelModal = lazy(() =>
  import('./sidebar/ConfirmModals.tsx').then((m) => ({ default: m.DeleteChannelModal })),
);
const NotificationToggle = lazy(() =>
  import('./NotificationToggle.tsx').then((m) => ({ default: m.NotificationToggle })),
);
const StartDmModal = lazy(() => import('./sidebar/ConfirmModals.tsx').then((m) => ({ default: m.StartDmModal })));
const ChannelMembersModal = lazy(() =>
  import('./sidebar/ChannelMembersModal.tsx').then((m) => ({ default: m.ChannelMembersModal })),
);
const EditProfileModal = lazy(() =>
  import('./sidebar/EditProfileModal.tsx').then((m) => ({ default: m.EditProfileModal })),
);

interface Props {
  state: RoomState;
  session: RoomSession;
  roomName: string;
  onSelectChannel(channelId: string): void;
  /** a hit of the search's Messages group: open its conversation at that message */
  onOpenMessage(channelId: string, messageId: string): void;
  onOpenCreateChannel(): void;
  onLeave(): void;
  /** open an administration dialog (Kick User confirm, the upgrade prompt) */
  onAdminDialog(d: AdminDialog): void;
  /** the header's settings button (as Ctrl/Cmd+S) */
  onToggleSettings(): void;
  /** the custom theme's logo (business), shown in place of ours: the server-signed same-origin image-proxy path */
  logoSrc?: string;
}

type Dialog =
  | { kind: 'deleteDm'; channelId: string; name: string }
  | { kind: 'deleteChannel'; channelId: string; name: string }
  | { kind: 'members'; channelId: string }
  | { kind: 'startDm'; userId: string; username: string }
  | { kind: 'profile' };

export function Sidebar({
  state,
  session,
  roomName,
  onSelectChannel,
  onOpenMessage,
  onOpenCreateChannel,
  onLeave,
  onAdminDialog,
  onToggleSettings,
  logoSrc,
}: Props) {
  const { workspace, user } = state;
  // profile pictures are stored files: PersonAvatar loads them through signed links with this room's token
  useEffect(() => {
    registerFileAccess(() => session.fileAccess());
    return () => registerFileAccess(null);
  }, [session]);
  const tier = workspace?.tier ?? workspace?.settings?.tier ?? 'free';
  const canManage = canManageChannels(user);
  const t = useT();
  const role = roleOf(user);
  const name = workspace?.name ?? roomName;
  const can = adminControls(user, tier, workspace?.expiresAt ?? null);
  const [query, setQuery] = useState('');
  const [dialog, setDialog] = useState<Dialog | null>(null);
  // the dashboard button is for signed-in users (a guest has no dashboard); read once, as the room opens
  const [signedIn] = useState(() => hasAccountSession());

  const chooseStatus = usePresenceTracker(useCallback((status) => session.setPresence(status), [session]));

  const items = useMemo(() => conversationList(state), [state]);
  const available = useMemo(() => availableToMessage(state), [state]);
  const search = useCallback((q: string) => session.searchMessages(q), [session]);

  const actions: ConversationActions = {
    select: onSelectChannel,
    markRead: (id) => session.markRead(id),
    askDeleteDm: (id) =>
      setDialog({
        kind: 'deleteDm',
        channelId: id,
        name: items.find((i) => i.channel.id === id)?.title ?? t('roomside.sidebar.thisUser'),
      }),
    rename: (id, newName) => session.renameChannel(id, newName),
    askDeleteChannel: (id) =>
      setDialog({ kind: 'deleteChannel', channelId: id, name: items.find((i) => i.channel.id === id)?.title ?? '' }),
    editMembers: (id) => setDialog({ kind: 'members', channelId: id }),
    memberActions: (p) => memberActions(p),
  };
  /** Make admin / Remove admin (owner), Kick User (owner and admins; not oneself; an admin cannot kick the owner) */
  function memberActions(p: PersonView): MenuEntry[] {
    if (!user || p.id === user.id) return [];
    const out: MenuEntry[] = [];
    if (can.setRole && !p.isOwner) {
      out.push({
        label: p.isAdmin ? t('roomside.member.removeAdmin') : t('roomside.member.makeAdmin'),
        icon: <UserPlusIcon size={16} />,
        testId: 'member-menu-role',
        onSelect: () =>
          void session.admin.setMemberRole(p.id, !p.isAdmin).then((r) => {
            if (!r.ok) session.showNotice(r.message);
          }),
      });
    }
    if (can.kick && !(p.isOwner && !user.isOwner)) {
      out.push({
        label: t('roomside.member.kick'),
        icon: <TrashIcon size={16} />,
        danger: true,
        testId: 'member-menu-kick',
        onSelect: () => onAdminDialog({ kind: 'kick', userId: p.id, username: p.username }),
      });
    }
    return out;
  }
  const openFromSearch = (open: () => void) => {
    setQuery('');
    open();
  };
  /** our DM with the user opens at once; a new one is confirmed first (DM confirm) */
  const startDm = (userId: string) => {
    if (dmWith(state, userId)) {
      void session.startDm(userId);
      return;
    }
    const username =
      state.workspace?.users.find((u) => u.id === userId)?.username ??
      state.online.find((u) => u.id === userId)?.username;
    if (!username) {
      void session.startDm(userId);
      return;
    } // reports User not found
    setDialog({ kind: 'startDm', userId, username });
  };
  const membersChannel = dialog?.kind === 'members' ? state.channels.find((c) => c.id === dialog.channelId) : undefined;

  return (
    <aside className="sidebar" data-testid="sidebar">
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
          canRename={can.rename}
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

      <SidebarSearchInput query={query} onQuery={setQuery} />

      {query.trim() ? (
        <div className="sidebar-scroll">
          <SidebarSearchResults
            state={state}
            query={query}
            search={search}
            onOpenChannel={(id) => openFromSearch(() => onSelectChannel(id))}
            onOpenMessage={(channelId, messageId) => openFromSearch(() => onOpenMessage(channelId, messageId))}
            onOpenUser={(id) => openFromSearch(() => startDm(id))}
          />
        </div>
      ) : (
        <>
          <div className="sidebar-section-head">
            <span>{t('roomside.sidebar.conversations')}</span>
            {canManage && (
              <button
                type="button"
                className="icon-button icon-button-dark"
                onClick={onOpenCreateChannel}
                aria-label={t('roomside.sidebar.createChannel')}
                title={t('roomside.sidebar.createChannel')}
                data-testid="create-channel-button"
              >
                <PlusIcon size={18} />
              </button>
            )}
          </div>
          <div className="sidebar-scroll">
            <ChannelList
              items={items}
              currentChannelId={state.currentChannelId}
              canManage={canManage}
              actions={actions}
            />
            <AvailableToMessage
              people={available}
              creatorId={workspace?.createdBy ?? null}
              onStart={startDm}
              memberActions={memberActions}
              onEnd={
                state.onlineNext === null
                  ? undefined
                  : // the next page of a big room's list (onlineList.ts, loaded on demand like its frames)
                    () =>
                      void import('../lib/onlineList.ts').then((m) => m.loadMoreOnline(session.realtime, session.store))
              }
            />
            <InviteCard roomName={name} />
          </div>
        </>
      )}

      <div className="sidebar-footer">
        <StatusMenu
          name={user?.username ?? '?'}
          picture={user?.profilePicture}
          status={user?.presenceStatus ?? 'offline'}
          choose={chooseStatus}
        />
        <div className="sidebar-user">
          <span className="sidebar-username" data-testid="current-username">
            {user?.username}
          </span>
          <span className={`role-badge role-${role.toLowerCase()}`} data-testid="role-badge">
            {t(ROLE_TEXT[role])}
          </span>
        </div>
        <button
          type="button"
          className="icon-button icon-button-dark"
          onClick={() => setDialog({ kind: 'profile' })}
          aria-label={t('roomside.sidebar.editProfile')}
          title={t('roomside.sidebar.editProfile')}
          data-testid="edit-profile-button"
        >
          <PencilIcon size={18} />
        </button>
        <button
          type="button"
          className="icon-button icon-button-dark"
          onClick={onLeave}
          aria-label={t('roomside.sidebar.leave')}
          title={t('roomside.sidebar.leave')}
          data-testid="leave-button"
        >
          <LogOutIcon size={18} />
        </button>
      </div>

      <Suspense fallback={null}>
        {dialog?.kind === 'deleteDm' && (
          <DeleteConversationModal
            name={dialog.name}
            onClose={() => setDialog(null)}
            onConfirm={() => session.deleteDm(dialog.channelId)}
          />
        )}
        {dialog?.kind === 'deleteChannel' && canManage && (
          <DeleteChannelModal
            name={dialog.name}
            onClose={() => setDialog(null)}
            onConfirm={() => session.deleteChannel(dialog.channelId)}
          />
        )}
        {membersChannel && canManage && (
          <ChannelMembersModal
            channel={membersChannel}
            users={workspace?.users ?? []}
            selfId={user?.id ?? null}
            onClose={() => setDialog(null)}
            onSave={(add, remove) => session.updateChannelMembers(membersChannel.id, add, remove)}
          />
        )}
        {dialog?.kind === 'startDm' && (
          <StartDmModal
            username={dialog.username}
            onClose={() => setDialog(null)}
            onConfirm={() => session.startDm(dialog.userId)}
          />
        )}
        {dialog?.kind === 'profile' && user && (
          <EditProfileModal
            username={user.username}
            onClose={() => setDialog(null)}
            onSave={(u, p) => session.updateProfile(u, p)}
            fileAccess={session.fileAccess()}
          />
        )}
      </Suspense>
    </aside>
  );
}
