/**
 * The top of a conversation whose whole history is loaded: a topic channel's "Welcome to #name" with the # mark, or a
 * DM's partner with their picture (docs/product/messages.md M18). With no messages yet it invites the first one.
 */
import { HashIcon } from './Icons.tsx';
import { PersonAvatar } from './sidebar/PersonAvatar.tsx';

export interface IntroTarget {
  kind: 'topic' | 'dm';
  /** the channel's name, or the DM partner's current username */
  name: string;
  /** the DM partner's profile picture */
  picture?: string | null;
}

export function ChannelIntro({ target, hasMessages }: { target: IntroTarget; hasMessages: boolean }) {
  if (target.kind === 'dm') {
    return (
      <div className="channel-intro dm-intro" data-testid="channel-intro" data-kind="dm">
        <div className="dm-intro-avatar">
          <PersonAvatar name={target.name} picture={target.picture} size={52} />
        </div>
        <h3>{target.name}</h3>
        <p>
          {hasMessages
            ? `This is the beginning of your direct messages with ${target.name}.`
            : `No messages yet. Send ${target.name} a message to start your conversation.`}
        </p>
      </div>
    );
  }
  return (
    <div className="channel-intro" data-testid="channel-intro" data-kind="topic">
      <div className="channel-intro-icon">
        <HashIcon size={26} />
      </div>
      <h3>Welcome to #{target.name}</h3>
      <p>{hasMessages ? 'This is the very beginning of the channel.' : 'No messages yet. Say hello!'}</p>
    </div>
  );
}
