/**
 * The conversation list (docs/product/rooms.md R15-R19): topic channels and DMs, latest activity first; each
 * row with its unread badge (99+), 24-hour time, preview (DM 30 / channel 25 characters) and, in DMs, typing...
 * and the partner's presence. Channel rows carry rename (inline), members and delete for an owner or admin; DM rows
 * a hover/context menu (Mark as Read, Delete Conversation; for an owner or admin also Make admin and Kick User) and,
 * on touch, a swipe that reveals Kick User and Delete Conversation.
 */
import type { ConversationItem } from '../state/conversationSelectors.ts';
import { ChannelRow } from './sidebar/ChannelRow.tsx';
import { DmRow } from './sidebar/DmRow.tsx';
import type { ConversationActions } from './sidebar/conversationActions.ts';

export type { ConversationActions } from './sidebar/conversationActions.ts';

interface ChannelListProps {
  items: ConversationItem[];
  currentChannelId: string | null;
  canManage: boolean;
  actions: ConversationActions;
}

export function ChannelList({ items, currentChannelId, canManage, actions }: ChannelListProps) {
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
      {items.map((item) =>
        item.kind === 'dm' ? (
          <DmRow key={item.channel.id} item={item} active={item.channel.id === currentChannelId} actions={actions} />
        ) : (
          <ChannelRow
            key={item.channel.id}
            item={item}
            active={item.channel.id === currentChannelId}
            canManage={canManage}
            actions={actions}
          />
        ),
      )}
    </ul>
  );
}
