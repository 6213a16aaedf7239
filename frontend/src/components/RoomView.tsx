import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { RoomSession } from '../lib/session.ts';
import { useStore } from '../hooks/useStore.ts';
import { useShortcuts, SIDEBAR_SEARCH_ID } from '../hooks/useShortcuts.ts';
import { useFaviconBadge } from '../hooks/useFaviconBadge.ts';
import { totalUnread } from '../state/selectors.ts';
import { canManageChannels, titleWithUnread } from '../lib/format.ts';
import {
  getSoundEnabled, hasUserInteracted, newIncomingMessages, playNotificationSound, shouldPlay, trackUserInteraction,
} from '../lib/notificationSound.ts';
import { Sidebar } from './Sidebar.tsx';
import { ChatArea } from './ChatArea.tsx';
import { CreateChannelModal } from './CreateChannelModal.tsx';
import { LoadingScreen } from './StatusScreens.tsx';
import { AlertIcon, CloseIcon } from './Icons.tsx';

interface Props {
  session: RoomSession;
  roomName: string;
}

const MOBILE_QUERY = '(max-width: 767px)';
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

/** The room's settings (Settings - Manage your chat room). Its sections come with the room-administration work. */
function SettingsPanel({ onClose }: { onClose(): void }) {
  const titleId = useId();
  const panelRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    panelRef.current?.focus();
    return () => { if (previous?.isConnected) previous.focus(); };
  }, []);
  return (
    <section ref={panelRef} className="settings-panel" role="region" aria-labelledby={titleId} tabIndex={-1}
      data-testid="settings-panel">
      <header className="settings-panel-header">
        <h2 id={titleId} className="settings-panel-title">Settings - Manage your chat room</h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label="Close settings" data-testid="settings-close">
          <CloseIcon size={18} />
        </button>
      </header>
      <div className="settings-panel-body">
        <p className="muted">Room settings will appear here.</p>
      </div>
    </section>
  );
}

/** The joined room: sidebar and chat; below 768 px they slide over each other. */
export function RoomView({ session, roomName }: Props) {
  const state = useStore(session.store);
  const [createOpen, setCreateOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
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

  useEffect(() => {
    if (!state.notice) return;
    const t = setTimeout(() => session.dismissNotice(), 5000);
    return () => clearTimeout(t);
  }, [state.notice, session]);

  const openMessage = useCallback((channelId: string, messageId: string) => {
    setFocus({ channelId, messageId });
    void session.revealMessage(channelId, messageId).then((held) => {
      if (!held) setFocus((f) => (f?.messageId === messageId ? null : f));
    });
  }, [session]);
  const focusDone = useCallback(() => setFocus(null), []);

  /** Mobile back arrow: clear the current channel, the list slides back in. */
  const onBack = useCallback(() => session.selectChannel(null), [session]);

  useShortcuts({
    focusSearch: () => {
      // on a phone the search lives in the list: bring the list back first
      if (isMobile() && session.state.currentChannelId) session.selectChannel(null);
      requestAnimationFrame(() => document.getElementById(SIDEBAR_SEARCH_ID)?.focus());
    },
    escape: () => setSettingsOpen(false),
    createChannel: () => setCreateOpen(true),
    toggleSettings: () => setSettingsOpen((open) => !open),
  }, { canCreateChannel: canCreate, enabled: state.everJoined });

  if (!state.everJoined) {
    return (
      <LoadingScreen
        text={state.connection.status === 'joining' ? `Joining ${roomName}…` : 'Connecting…'}
        error={state.connection.error}
        onRetry={() => session.retry()}
      />
    );
  }

  const leave = async () => {
    await session.leave();
    window.location.assign('/');
  };

  const offline = state.connection.status !== 'joined';

  return (
    <div className={`room-layout${state.currentChannelId ? ' show-chat' : ''}${settingsOpen ? ' settings-open' : ''}`} data-testid="room-view">
      {offline && (
        <div className="connection-banner" role="status" data-testid="connection-banner">
          <span className="spinner spinner-sm spinner-light" aria-hidden="true" />
          <span>{state.connection.error ?? 'Connection lost. Reconnecting…'}</span>
        </div>
      )}
      <Sidebar state={state} session={session} roomName={roomName} onSelectChannel={(id) => session.selectChannel(id)}
        onOpenMessage={openMessage}
        onOpenCreateChannel={() => setCreateOpen(true)} onLeave={() => void leave()} />
      <ChatArea session={session} state={state} onBack={onBack}
        focusMessageId={focus && focus.channelId === state.currentChannelId ? focus.messageId : null} onFocusDone={focusDone} />
      {settingsOpen && <SettingsPanel onClose={() => setSettingsOpen(false)} />}
      {createOpen && canCreate && (
        <CreateChannelModal onClose={() => setCreateOpen(false)} users={state.workspace?.users ?? []} selfId={state.user?.id ?? null}
          onCreate={(n, isPrivate, memberIds) => session.createChannel(n, isPrivate, memberIds)} />
      )}
      {state.notice && (
        <div className="toast" role="alert" data-testid="notice">
          <AlertIcon size={16} />
          <span>{state.notice}</span>
          <button type="button" className="icon-button" onClick={() => session.dismissNotice()} aria-label="Dismiss"><CloseIcon size={14} /></button>
        </div>
      )}
    </div>
  );
}
