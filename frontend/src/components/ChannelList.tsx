import type { ChannelSummary } from '../state/selectors.ts';
import { formatBadge, formatTime, truncate } from '../lib/format.ts';
import { HashIcon, LockIcon } from './Icons.tsx';

export const CHANNEL_PREVIEW_MAX = 25;
export const EMPTY_CHANNEL_PREVIEW = 'No messages yet • Tap to start chatting';

interface ChannelListProps {
  items: ChannelSummary[];
  currentChannelId: string | null;
  canManage: boolean;
  selfId: string | null;
  onSelect(channelId: string): void;
}

export function ChannelList({ items, currentChannelId, canManage, selfId, onSelect }: ChannelListProps) {
  if (items.length === 0) {
    return (
      <div className="channel-empty" data-testid="channel-list-empty">
        <p className="channel-empty-title">No conversations yet</p>
        <p className="channel-empty-hint">
          {canManage
            ? 'Create a channel or invite others to start chatting'
            : 'Ask your workspace owner to create a channel or invite you to one'}
        </p>
      </div>
    );
  }
  return (
    <ul className="channel-list" data-testid="channel-list">
      {items.map(({ channel, lastMessage, unread }) => {
        const active = channel.id === currentChannelId;
        const preview = lastMessage ? truncate(lastMessage.content, CHANNEL_PREVIEW_MAX) : EMPTY_CHANNEL_PREVIEW;
        const fromSelf = Boolean(lastMessage && selfId && lastMessage.authorId === selfId);
        return (
          <li key={channel.id}>
            <button type="button" className={`channel-row${active ? ' active' : ''}${unread ? ' has-unread' : ''}`}
              onClick={() => onSelect(channel.id)} aria-current={active ? 'true' : undefined}
              data-testid="channel-row" data-channel-id={channel.id} data-channel-name={channel.name}>
              <span className="channel-icon">{channel.isPrivate ? <LockIcon size={16} /> : <HashIcon size={16} />}</span>
              <span className="channel-main">
                <span className="channel-line">
                  <span className="channel-name">{channel.name}</span>
                  {lastMessage && <time className="channel-time" dateTime={lastMessage.timestamp}>{formatTime(lastMessage.timestamp)}</time>}
                </span>
                <span className="channel-line">
                  <span className="channel-preview" data-testid="channel-preview" title={fromSelf ? 'You' : lastMessage?.authorName}>{preview}</span>
                  {unread > 0 && <span className="badge-unread" data-testid="unread-badge" aria-label={`${unread} unread`}>{formatBadge(unread)}</span>}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
