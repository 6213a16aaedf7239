import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { RoomSession } from '../lib/session.ts';
import { useStore } from '../hooks/useStore.ts';
import { useShortcuts, SIDEBAR_SEARCH_ID } from '../hooks/useShortcuts.ts';
import { useFaviconBadge } from '../hooks/useFaviconBadge.ts';
import { useDesktopNotifications } from '../hooks/useDesktopNotifications.ts';
import { totalUnread } from '../state/selectors.ts';
import { canManageChannels, titleWithUnread } from '../lib/format.ts';
import {
  getSoundEnabled,
  hasUserInteracted,
  newIncomingMessages,
  playNotificationSound,
  shouldPlay,
  trackUserInteraction,
} from '../lib/notificationSound.ts';
import { useRoomTheme } from '../hooks/useRoomTheme.ts';
import { useThemeAnnouncement } from '../hooks/useThemeAnnouncement.ts';
import { readAuth, saveAuth } from '../lib/storage.ts';
import { roomPath } from '../lib/routes.ts';
import { stripQueryParams } from '../lib/navigation.ts';
import { adminControls } from '../lib/roomRules.ts';
import { takeClaimOutcome } from '../lib/claim.ts';
import { Sidebar } from './Sidebar.tsx';
import { ExpiryBanner } from './ExpiryBanner.tsx';
import type { AdminDialog } from './admin/adminDialog.ts';
import { ChatArea } from './ChatArea.tsx';
import { MentionsProvider } from './MentionsProvider.tsx';
import { LoadingScreen } from './StatusScreens.tsx';
import { useToast } from './overlays/Toast.tsx';
import { CallContext } from './calls/callContext.ts';
import { useCalls } from './calls/useCalls.ts';
import { CallUpgradeModal } from './calls/CallUpgradeModal.tsx';
import { useT } from '../i18n/i18n.ts';
import { errorText } from '../i18n/errorText.ts';

interface Props {
  session: RoomSession;
  roomName: string;
}

// The settings panel and the administration dialogs load on first use (the room page's initial JavaScript stays small).
const SettingsPanel = lazy(() => import('./admin/SettingsPanel.tsx').then((m) => ({ default: m.SettingsPanel })));
// opened from the sidebar's + only: on demand, which keeps the room page within its initial JS budget (PF17)
const CreateChannelModal = lazy(() =>
  import('./CreateChannelModal.tsx').then((m) => ({ default: m.CreateChannelModal })),
);
const AdminDialogs = lazy(() => import('./admin/AdminDialogs.tsx').then((m) => ({ default: m.AdminDialogs })));
// The call window and its WebRTC code load when a call starts or rings.
const CallWindow = lazy(() => import('./calls/CallWindow.tsx').then((m) => ({ default: m.CallWindow })));

const MOBILE_QUERY = '(max-width: 767px)';
/** docs/product/rooms.md R1: a dialog opened by an address flag waits 0.5 s */
const MODAL_OPEN_DELAY_MS = 500;
const isMobile = () => typeof window.matchMedia === 'function' && window.matchMedia(MOBILE_QUERY).matches;

/** Beep for messages that arrive while the room is open (compares consecutive store states; see notificationSound.ts). */
function useNotificationSound(session: RoomSession): void {
  useEffect(() => {
    trackUserInteraction();
    let prev = session.store.getState();
    return session.store.subscribe(() => {
      const next = session.store.getState();
      const incoming = newIncomingMessages(prev, next);
      prev = next;
      if (incoming.length === 0) return;
      const common = {
        selfId: next.user?.id ?? null,
        currentChannelId: next.currentChannelId,
        tabVisible: document.visibilityState === 'visible',
        soundEnabled: getSoundEnabled(),
        userInteracted: hasUserInteracted(),
      };
      if (incoming.some((message) => shouldPlay({ ...common, message }))) playNotificationSound();
    });
  }, [session]);
}

/** The address follows the room's name (a rename): /{newName}, and the stored auth record learns it too. */
function useAddressFollowsName(workspaceId: string | null, name: string | null): void {
  useEffect(() => {
    if (!workspaceId || !name) return;
    const auth = readAuth();
    if (auth && auth.workspaceId === workspaceId && auth.roomName !== name) saveAuth({ ...auth, roomName: name });
    const path = roomPath(name);
    if (window.location.pathname !== path && window.location.pathname.split('/').length === 2) {
      window.history.replaceState(window.history.state, '', `${path}${window.location.search}${window.location.hash}`);
    }
  }, [workspaceId, name]);
}

/** openExtend / resumeExtension and openUpgrade / resumeUpgrade: the dialog opens 0.5 s after joining; the flags go. */
function useOpenFlags(joined: boolean, workspaceId: string | null, open: (d: AdminDialog) => void): void {
  useEffect(() => {
    if (!joined) return;
    const params = new URLSearchParams(window.location.search);
    const flag = (n: string) => params.get(n) === 'true';
    const dialog: AdminDialog | null =
      flag('openExtend') || flag('resumeExtension')
        ? { kind: 'extend' }
        : flag('openUpgrade') || flag('resumeUpgrade')
          ? { kind: 'plans' }
          : null;
    stripQueryParams(['openExtend', 'resumeExtension', 'openUpgrade', 'resumeUpgrade']);
    // a claim through Google finished while the page was away: Claim Your Room shows how it went
    const claimed = workspaceId ? takeClaimOutcome(workspaceId) : null;
    if (claimed) {
      open({ kind: 'claim', outcome: claimed });
      return;
    }
    if (!dialog) return;
    const t = setTimeout(() => open(dialog), MODAL_OPEN_DELAY_MS);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [joined]);
}

/** The joined room: sidebar and chat; below 768 px they slide over each other. */
export function RoomView({ session, roomName }: Props) {
  const t = useT();
  const state = useStore(session.store);
  const [createOpen, setCreateOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [adminDialog, setAdminDialog] = useState<AdminDialog | null>(null);
  const theme = useRoomTheme(state.workspace?.theme);
  useThemeAnnouncement(session);
  const toast = useToast();
  const calls = useCalls(session, state.workspace?.tier ?? 'free', state.everJoined);
  useAddressFollowsName(state.workspace?.id ?? null, state.workspace?.name ?? null);
  useOpenFlags(state.everJoined, state.workspace?.id ?? null, setAdminDialog);
  /** a search hit being revealed: the chat scrolls to it and highlights it briefly */
  const [focus, setFocus] = useState<{ channelId: string; messageId: string } | null>(null);
  const name = state.workspace?.name ?? roomName;
  const unread = totalUnread(state);
  const canCreate = canManageChannels(state.user);

  useEffect(() => {
    document.title = titleWithUnread(`${name} · Ephemera`, unread);
  }, [name, unread]);
  useFaviconBadge(unread);
  useNotificationSound(session);
  useDesktopNotifications(session);

  // the session's notice (an action failed after its dialog closed) becomes an error toast
  useEffect(() => {
    if (!state.notice) return;
    toast.show({ type: 'error', message: errorText(null, state.notice), testId: 'notice' });
    session.dismissNotice();
  }, [state.notice, session, toast]);

  const openMessage = useCallback(
    (channelId: string, messageId: string) => {
      setFocus({ channelId, messageId });
      void session.revealMessage(channelId, messageId).then((held) => {
        if (!held) setFocus((f) => (f?.messageId === messageId ? null : f));
      });
    },
    [session],
  );
  const focusDone = useCallback(() => setFocus(null), []);

  /** Mobile back arrow: clear the current channel, the list slides back in. */
  const onBack = useCallback(() => session.selectChannel(null), [session]);

  useShortcuts(
    {
      focusSearch: () => {
        // on a phone the search lives in the list: bring the list back first
        if (isMobile() && session.state.currentChannelId) session.selectChannel(null);
        requestAnimationFrame(() => document.getElementById(SIDEBAR_SEARCH_ID)?.focus());
      },
      escape: () => setSettingsOpen(false),
      createChannel: () => setCreateOpen(true),
      toggleSettings: () => setSettingsOpen((open) => !open),
    },
    { canCreateChannel: canCreate, enabled: state.everJoined },
  );

  if (!state.everJoined) {
    return (
      <LoadingScreen
        text={
          state.connection.status === 'joining'
            ? t('roomside.load.joining', { roomName })
            : t('roomside.load.connecting')
        }
        error={state.connection.error ? errorText(null, state.connection.error) : state.connection.error}
        onRetry={() => session.retry()}
      />
    );
  }

  const leave = async () => {
    await session.leave();
    window.location.assign('/');
  };

  const offline = state.connection.status !== 'joined';
  const ws = state.workspace;
  const can = adminControls(state.user, ws?.tier ?? 'free', ws?.expiresAt ?? null);
  const shownTheme = theme.preview ?? theme.active;
  // The custom logo only ever loads through the server-signed image-proxy path of the room's broadcast theme
  // (img-src 'self'); a logo address not broadcast yet (a preview, a theme applied for oneself) shows our mark.
  const logoSrc =
    shownTheme.themeId === 'custom' &&
    ws?.theme?.logoSrc &&
    ws.theme.customTheme?.logoUrl === shownTheme.custom?.logoUrl
      ? ws.theme.logoSrc
      : undefined;
  const banner = (
    <ExpiryBanner
      expiresAt={ws?.expiresAt ?? null}
      onExtend={can.extend ? () => setAdminDialog({ kind: 'extend' }) : undefined}
    />
  );

  return (
    <CallContext.Provider value={calls.actions}>
      <div
        className={`room-layout${state.currentChannelId ? ' show-chat' : ''}${settingsOpen ? ' settings-open' : ''}`}
        data-testid="room-view"
      >
        {offline && (
          <div className="connection-banner" role="status" data-testid="connection-banner">
            <span className="spinner spinner-sm spinner-light" aria-hidden="true" />
            <span>
              {state.connection.error ? errorText(null, state.connection.error) : t('roomside.load.reconnecting')}
            </span>
          </div>
        )}
        <Sidebar
          state={state}
          session={session}
          roomName={roomName}
          onSelectChannel={(id) => session.selectChannel(id)}
          onOpenMessage={openMessage}
          onOpenCreateChannel={() => setCreateOpen(true)}
          onLeave={() => void leave()}
          onAdminDialog={setAdminDialog}
          onToggleSettings={() => setSettingsOpen((open) => !open)}
          logoSrc={logoSrc}
        />
        <MentionsProvider state={state}>
          <ChatArea
            session={session}
            state={state}
            onBack={onBack}
            focusMessageId={focus && focus.channelId === state.currentChannelId ? focus.messageId : null}
            onFocusDone={focusDone}
            banner={banner}
          />
        </MentionsProvider>
        <Suspense fallback={null}>
          {settingsOpen && (
            <SettingsPanel
              state={state}
              roomName={roomName}
              open={setAdminDialog}
              onClose={() => setSettingsOpen(false)}
            />
          )}
          {adminDialog && (
            <AdminDialogs
              dialog={adminDialog}
              state={state}
              session={session}
              theme={theme}
              open={setAdminDialog}
              close={() => setAdminDialog(null)}
            />
          )}
          {createOpen && canCreate && (
            <CreateChannelModal
              onClose={() => setCreateOpen(false)}
              users={state.workspace?.users ?? []}
              selfId={state.user?.id ?? null}
              onCreate={(n, isPrivate, memberIds) => session.createChannel(n, isPrivate, memberIds)}
            />
          )}
        </Suspense>
        {calls.launch && session.realtime && (
          <Suspense fallback={null}>
            <CallWindow
              key={`${calls.launch.direction}-${calls.launch.channelId}`}
              socket={session.realtime}
              launch={calls.launch}
              onClose={calls.close}
              self={{
                name: state.user?.username ?? t('room.message.you'),
                picture: state.user?.profilePicture ?? null,
                peerPicture: state.workspace?.users.find((u) => u.id === calls.launch?.peerId)?.profilePicture ?? null,
              }}
            />
          </Suspense>
        )}
        {calls.upgrade && <CallUpgradeModal callType={calls.upgrade} onClose={calls.closeUpgrade} />}
      </div>
    </CallContext.Provider>
  );
}
