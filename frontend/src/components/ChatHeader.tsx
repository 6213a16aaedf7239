/**
 * The chat header (docs/product/messages.md M13, calls.md C1): for a channel its name and "N members online"; for a
 * DM the
 * partner's name with "typing..." or Online, Away, Busy or Offline.
 */
import type { Channel, PresenceStatus } from '@ephemera/proto';
import { ArrowLeftIcon, LockIcon } from './Icons.tsx';
import { CallButtons } from './calls/CallButtons.tsx';
import { useT, type MessageId } from '../i18n/i18n.ts';

const STATUS_TEXT: Record<PresenceStatus | 'offline', MessageId> = {
  online: 'room.presence.online',
  away: 'room.presence.away',
  busy: 'room.presence.busy',
  offline: 'room.presence.offline',
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
  const t = useT();
  return (
    <header className="chat-header" data-testid="chat-header">
      <button
        type="button"
        className="icon-button back-button"
        onClick={onBack}
        aria-label={t('room.header.back')}
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
                  {t('room.header.typing')}
                </span>
              ) : (
                <>
                  <span className={`presence-dot ${partner.status}`} aria-hidden="true" />{' '}
                  {t(STATUS_TEXT[partner.status])}
                </>
              )}
            </span>
          </>
        ) : (
          <>
            <h2 className="chat-title">
              <span data-testid="channel-title"># {channel.name}</span>
              {channel.isPrivate && (
                <span className="private-chip" title={t('room.header.privateChannel')}>
                  <LockIcon size={13} /> {t('room.header.private')}
                </span>
              )}
            </h2>
            <span className="chat-subtitle" data-testid="members-online">
              <span className="online-dot" aria-hidden="true" /> {t('room.header.membersOnline', { count: online })}
            </span>
          </>
        )}
      </div>
      {partner?.id && <CallButtons channelId={channel.id} peerId={partner.id} peerName={partner.name} />}
    </header>
  );
}
