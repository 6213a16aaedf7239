/**
 * Catching up on changes to messages already held. Live edits, deletions and reactions come as events; one missed
 * while offline would otherwise stay wrong, because merging a page skips ids it holds. When a page of a channel
 * arrives from the server (join-channel's latest page, an older page, a resync), this slice:
 * - takes the server's version of every held message that changed (content, edit mark, reactions, preview, quote);
 * - drops held messages of that channel inside the page's seq range that the page no longer has (deleted).
 * Runs after the core merge (roomState.ts SLICES), which has added the page's new messages.
 */
import type { Message } from '@ephemera/proto';
import type { MessageSource, RoomState } from './roomCore.ts';

interface MergedAction {
  type: 'messagesMerged';
  messages: Message[];
  source: MessageSource;
  page?: { channelId: string; hasMore: boolean };
}

const SNAPSHOT_SOURCES: ReadonlySet<MessageSource> = new Set(['history', 'older', 'sync']);

const json = (v: unknown) => JSON.stringify(v ?? null);
/** The server's copy differs from ours in something that can change after sending. */
function changed(held: Message, fresh: Message): boolean {
  return (
    held.content !== fresh.content ||
    held.isEdited !== fresh.isEdited ||
    (held.editedAt ?? null) !== (fresh.editedAt ?? null) ||
    json(held.reactions) !== json(fresh.reactions) ||
    json(held.linkPreview) !== json(fresh.linkPreview) ||
    json(held.replyTo) !== json(fresh.replyTo)
  );
}

export function messageRefreshReducer(state: RoomState, action: { type: string }): RoomState {
  if (action.type !== 'messagesMerged') return state;
  const a = action as MergedAction;
  if (!SNAPSHOT_SOURCES.has(a.source) || !Array.isArray(a.messages)) return state;

  const fresh = new Map<string, Message>();
  for (const m of a.messages) if (m && typeof m.id === 'string' && typeof m.channelId === 'string') fresh.set(m.id, m);
  // a full page of one channel speaks for every seq between its first and last message
  const page = a.page && (a.source === 'history' || a.source === 'older') ? a.page.channelId : null;
  const pageSeqs = page ? a.messages.filter((m) => m?.channelId === page).map((m) => m.seq) : [];
  const range = pageSeqs.length ? { min: Math.min(...pageSeqs), max: Math.max(...pageSeqs) } : null;

  let messages = state.messages;
  const channels = new Set([...fresh.values()].map((m) => m.channelId));
  for (const channelId of channels) {
    const list = messages[channelId];
    if (!list) continue;
    let differs = false;
    const rebuilt: Message[] = [];
    for (const held of list) {
      const update = fresh.get(held.id);
      if (!update && range && channelId === page && held.seq >= range.min && held.seq <= range.max) {
        differs = true; // deleted since we got it
        continue;
      }
      if (update && update !== held && changed(held, update)) {
        differs = true;
        rebuilt.push(update);
      } else {
        rebuilt.push(held);
      }
    }
    if (!differs) continue;
    if (messages === state.messages) messages = { ...state.messages };
    messages[channelId] = rebuilt;
  }
  return messages === state.messages ? state : { ...state, messages };
}
