import { useEffect, useState } from 'react';
import type { RoomSession } from '../lib/session.ts';
import { useStore } from '../hooks/useStore.ts';
import { totalUnread } from '../state/selectors.ts';
import { titleWithUnread } from '../lib/format.ts';
import { Sidebar } from './Sidebar.tsx';
import { ChatArea } from './ChatArea.tsx';
import { CreateChannelModal } from './CreateChannelModal.tsx';
import { LoadingScreen } from './StatusScreens.tsx';
import { AlertIcon, CloseIcon } from './Icons.tsx';

interface Props {
  session: RoomSession;
  roomName: string;
}

/** The joined room: sidebar and chat; below 768 px they slide over each other. */
export function RoomView({ session, roomName }: Props) {
  const state = useStore(session.store);
  const [createOpen, setCreateOpen] = useState(false);
  const name = state.workspace?.name ?? roomName;
  const unread = totalUnread(state);

  useEffect(() => {
    document.title = titleWithUnread(`${name} · Ephemera`, unread);
  }, [name, unread]);

  useEffect(() => {
    if (!state.notice) return;
    const t = setTimeout(() => session.dismissNotice(), 5000);
    return () => clearTimeout(t);
  }, [state.notice, session]);

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
    <div className={`room-layout${state.currentChannelId ? ' show-chat' : ''}`} data-testid="room-view">
      {offline && (
        <div className="connection-banner" role="status" data-testid="connection-banner">
          <span className="spinner spinner-sm spinner-light" aria-hidden="true" />
          <span>{state.connection.error ?? 'Connection lost. Reconnecting…'}</span>
        </div>
      )}
      <Sidebar state={state} roomName={roomName} onSelectChannel={(id) => session.selectChannel(id)}
        onOpenCreateChannel={() => setCreateOpen(true)} onLeave={() => void leave()} />
      <ChatArea session={session} state={state} />
      {createOpen && (
        <CreateChannelModal onClose={() => setCreateOpen(false)} onCreate={(n, isPrivate) => session.createChannel(n, isPrivate)} />
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
