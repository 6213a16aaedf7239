/**
 * Changes to messages already held: edits, deletions and reaction maps (data only; the chat area renders them).
 * Events for a message we do not hold are ignored: its page brings the current version when it loads.
 */
import type { Message } from '@ephemera/proto';
import type { RoomState } from './roomCore.ts';

export type MessageEventsAction =
  | { type: 'messageEdited'; channelId: string; messageId: string; content: string; editedAt: string | null }
  | { type: 'messageDeleted'; channelId: string; messageId: string }
  | { type: 'reactionsChanged'; channelId: string; messageId: string; reactions: Record<string, string[]> };

function updateMessage(
  state: RoomState,
  channelId: string,
  messageId: string,
  change: (m: Message) => Message | null,
): RoomState {
  const list = state.messages[channelId];
  const i = list?.findIndex((m) => m.id === messageId) ?? -1;
  if (!list || i < 0) return state;
  const next = change(list[i]!);
  const copy = list.slice();
  if (next) copy[i] = next;
  else copy.splice(i, 1);
  return { ...state, messages: { ...state.messages, [channelId]: copy } };
}

/** Drop empty emoji entries (docs/product/messages.md M5: empty emoji entries are dropped). */
function cleanReactions(reactions: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [emoji, users] of Object.entries(reactions ?? {})) {
    if (Array.isArray(users) && users.length > 0) out[emoji] = users;
  }
  return out;
}

export function messageEventsReducer(state: RoomState, action: MessageEventsAction | { type: string }): RoomState {
  const a = action as MessageEventsAction;
  switch (a.type) {
    case 'messageEdited':
      return updateMessage(state, a.channelId, a.messageId, (m) => ({
        ...m,
        content: a.content,
        isEdited: true,
        editedAt: a.editedAt ?? m.editedAt,
      }));
    case 'messageDeleted':
      return updateMessage(state, a.channelId, a.messageId, () => null);
    case 'reactionsChanged':
      return updateMessage(state, a.channelId, a.messageId, (m) => ({ ...m, reactions: cleanReactions(a.reactions) }));
    default:
      return state;
  }
}
