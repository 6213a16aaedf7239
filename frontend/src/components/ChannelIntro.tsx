/**
 * The top of a conversation whose whole history is loaded: a topic channel's "Welcome to #name" with the # mark, or a
 * DM's partner with their picture (docs/product/messages.md M18). With no messages yet it invites the first one.
 */
import { HashIcon } from './Icons.tsx';
import { PersonAvatar } from './sidebar/PersonAvatar.tsx';
import { useT } from '../i18n/i18n.ts';

export interface IntroTarget {
  kind: 'topic' | 'dm';
  /** the channel's name, or the DM partner's current username */
  name: string;
  /** the DM partner's profile picture */
  picture?: string | null;
}

export function ChannelIntro({ target, hasMessages }: { target: IntroTarget; hasMessages: boolean }) {
  const t = useT();
  if (target.kind === 'dm') {
    return (
      <div className="channel-intro dm-intro" data-testid="channel-intro" data-kind="dm">
        <div className="dm-intro-avatar">
          <PersonAvatar name={target.name} picture={target.picture} size={52} />
        </div>
        <h3>{target.name}</h3>
        <p>
          {hasMessages
            ? t('room.intro.dmBeginning', { name: target.name })
            : t('room.intro.dmEmpty', { name: target.name })}
        </p>
      </div>
    );
  }
  return (
    <div className="channel-intro" data-testid="channel-intro" data-kind="topic">
      <div className="channel-intro-icon">
        <HashIcon size={26} />
      </div>
      <h3>{t('room.intro.welcome', { name: target.name })}</h3>
      <p>{hasMessages ? t('room.intro.channelBeginning') : t('room.intro.channelEmpty')}</p>
    </div>
  );
}
