/**
 * The room's sidebar (docs/product/rooms.md R15-R19): header (sidebar/SidebarHeader.tsx), search, conversation list
 * (channels and DMs), Available to message, invite card, the user footer (sidebar/SidebarFooter.tsx) and the
 * dialogs they open (sidebar/SidebarDialogs.tsx).
 * Also sets the user's presence from the tab's visibility and focus (sidebar/presence.ts) while the room is open.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { registerFileAccess } from '../lib/fileLinks.ts';
import type { RoomState } from '../state/roomState.ts';
import type { RoomSession } from '../lib/session.ts';
import { availableToMessage, conversationList, dmWith } from '../state/conversationSelectors.ts';
import { canManageChannels } from '../lib/format.ts';
import { adminControls } from '../lib/roomRules.ts';
import type { PersonView } from '../state/conversationSelectors.ts';
import type { MenuEntry } from './ui/Menu.tsx';
import type { AdminDialog } from './admin/adminDialog.ts';
import { ChannelList, type ConversationActions } from './ChannelList.tsx';
import { InviteCard } from './InviteCard.tsx';
import { PlusIcon } from './Icons.tsx';
import { AvailableToMessage } from './sidebar/AvailableToMessage.tsx';
import { SidebarDialogs, type SidebarDialog } from './sidebar/SidebarDialogs.tsx';
import { SidebarFooter } from './sidebar/SidebarFooter.tsx';
import { SidebarHeader } from './sidebar/SidebarHeader.tsx';
import { SidebarSearchInput, SidebarSearchResults } from './sidebar/SidebarSearch.tsx';
import { TrashIcon, UserPlusIcon } from './sidebar/icons.tsx';
import { usePresenceTracker } from './sidebar/presence.ts';
import { useT } from '../i18n/i18n.ts';
import './sidebar/sidebar.css';

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
  const name = workspace?.name ?? roomName;
  const can = adminControls(user, tier, workspace?.expiresAt ?? null);
  const [query, setQuery] = useState('');
  const [dialog, setDialog] = useState<SidebarDialog | null>(null);

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

  return (
    <aside className="sidebar" data-testid="sidebar">
      <SidebarHeader
        state={state}
        session={session}
        name={name}
        tier={tier}
        canRename={can.rename}
        onAdminDialog={onAdminDialog}
        onToggleSettings={onToggleSettings}
        logoSrc={logoSrc}
      />

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

      <SidebarFooter
        user={user}
        chooseStatus={chooseStatus}
        onEditProfile={() => setDialog({ kind: 'profile' })}
        onLeave={onLeave}
      />

      <SidebarDialogs
        dialog={dialog}
        onClose={() => setDialog(null)}
        state={state}
        session={session}
        canManage={canManage}
      />
    </aside>
  );
}
