import { useCallback, useMemo } from 'react';
import type { RoomState } from '../state/roomState.ts';
import { currentChannel, displayMessages, membersOnline } from '../state/selectors.ts';
import type { RoomSession } from '../lib/session.ts';
import { canManageChannels } from '../lib/format.ts';
import { MessageList } from './MessageList.tsx';
import { Composer } from './Composer.tsx';
import { ArrowLeftIcon, LockIcon, MessageIcon } from './Icons.tsx';

interface Props {
  session: RoomSession;
  state: RoomState;
}

export function ChatArea({ session, state }: Props) {
  const channel = currentChannel(state);
  const channelId = channel?.id ?? null;
  const onLoadOlder = useCallback(() => { if (channelId) void session.loadOlder(channelId); }, [session, channelId]);
  const onRetry = useCallback((id: string) => session.retryMessage(id), [session]);
  const onDiscard = useCallback((id: string) => session.discardMessage(id), [session]);
  const onSend = useCallback((content: string) => session.sendMessage(content), [session]);
  const channelMessages = channelId ? state.messages[channelId] : undefined;
  const messages = useMemo(
    () => displayMessages(channelId, channelMessages, state.pending, state.user),
    [channelId, channelMessages, state.pending, state.user],
  );

  if (!channel) {
    const hasChannels = state.channels.some((c) => c.type === 'topic');
    return (
      <section className="chat chat-empty" data-testid="chat-empty">
        <div className="empty-illustration"><MessageIcon size={36} /></div>
        <h2>{hasChannels ? 'Pick a conversation' : 'No conversations yet'}</h2>
        <p>
          {hasChannels
            ? 'Choose a channel from the list to start chatting.'
            : canManageChannels(state.user)
              ? 'Create a channel with the + button, then invite others with the link in the sidebar.'
              : 'The room owner has not created a channel yet.'}
        </p>
      </section>
    );
  }

  const online = membersOnline(state, channel);

  return (
    <section className="chat" data-testid="chat-area" data-channel-id={channel.id}>
      <header className="chat-header" data-testid="chat-header">
        <button type="button" className="icon-button back-button" onClick={() => session.selectChannel(null)}
          aria-label="Back to conversations" data-testid="back-button">
          <ArrowLeftIcon size={20} />
        </button>
        <div className="chat-header-main">
          <h2 className="chat-title">
            <span data-testid="channel-title"># {channel.name}</span>
            {channel.isPrivate && <span className="private-chip" title="Private channel"><LockIcon size={13} /> Private</span>}
          </h2>
          <span className="chat-subtitle" data-testid="members-online">
            <span className="online-dot" aria-hidden="true" /> {online} {online === 1 ? 'member' : 'members'} online
          </span>
        </div>
      </header>
      <MessageList key={channel.id} channelId={channel.id} channelName={channel.name} messages={messages}
        hasMore={state.hasMore[channel.id] !== false} ready={Boolean(state.latestLoaded[channel.id])} loadingOlder={Boolean(state.loadingOlder[channel.id])}
        onLoadOlder={onLoadOlder} onRetry={onRetry} onDiscard={onDiscard} />
      <Composer key={`composer-${channel.id}`} channelName={channel.name} disabled={!state.user} onSend={onSend} />
    </section>
  );
}
