/**
 * The chat header (docs/product/messages.md M13, calls.md C1): for a channel its name and "N members online"; for a
 * DM the
 * partner's name with "typing..." or Online, Away, Busy or Offline.
 */
import type { Channel, PresenceStatus } from '@ephemera/proto';
import { ArrowLeftIcon, LockIcon } from './Icons.tsx';
import { CallButtons } from './calls/CallButtons.tsx';

const STATUS_TEXT: Record<PresenceStatus | 'offline', string> = {
  online: 'Online',
  away: 'Away',
  busy: 'Busy',
  offline: 'Offline',
};

interface Props {
  channel: Channel;
  onBack(): void;
  /** channels: members online */
  online: number;
  /** DMs: the partner */
  partner?: { id?: string; name: string; status: PresenceStatus | 'offline'; typing: boolean };
}

export function ChatHeader({ channel, onBack, online, partner }: Props) {
  return (
    <header className="chat-header" data-testid="chat-header">
      <button
        type="button"
        className="icon-button back-button"
        onClick={onBack}
        aria-label="Back to conversations"
        data-testid="back-button"
      >
        <ArrowLeftIcon size={20} />
      </button>
      <div className="chat-header-main">
        {partner ? (
          <>
            <h2 className="chat-title">
              <span data-testid="channel-title">{partner.name}</span>
            </h2>
            <span
              className={`chat-subtitle presence-${partner.typing ? 'typing' : partner.status}`}
              data-testid="dm-status"
            >
              {partner.typing ? (
                <span className="dm-typing" data-testid="dm-typing">
                  typing...
                </span>
              ) : (
                <>
                  <span className={`presence-dot ${partner.status}`} aria-hidden="true" /> {STATUS_TEXT[partner.status]}
                </>
              )}
            </span>
          </>
        ) : (
          <>
            <h2 className="chat-title">
              <span data-testid="channel-title"># {channel.name}</span>
              {channel.isPrivate && (
                <span className="private-chip" title="Private channel">
                  <LockIcon size={13} /> Private
                </span>
              )}
            </h2>
            <span className="chat-subtitle" data-testid="members-online">
              <span className="online-dot" aria-hidden="true" /> {online} {online === 1 ? 'member' : 'members'} online
            </span>
          </>
        )}
      </div>
      {partner?.id && <CallButtons channelId={channel.id} peerId={partner.id} peerName={partner.name} />}
    </header>
  );
}
