/**
 * The online list's count and paging, and the typers counted beyond the ones shown (docs/protocol.md, big rooms).
 * A big room's join brings the count and a first page (online-users); the rest is fetched page by page
 * (fetch-online-users, merged into the list by lib/onlineList.ts and set as a whole), and live changes (single events or presence-batch frames) move the count.
 * This slice runs before the core one (SLICES), so it sees the list before a join or leave changes it: a user it does
 * not hold yet is one more, a user it holds that leaves one less, and a user who leaves before being paged in one less
 * too while the count is above the loaded list. The count is set again by every page.
 */
import { LIMITS } from '@ephemera/proto/client';
import type { OnlineUser } from '@ephemera/proto';
import type { RoomState } from './roomCore.ts';

/** a big room's public channel: how many type beyond the typers shown (0: none) */
export type OnlineAction = { type: 'typingOthers'; channelId: string; others: number; now: number };

type Handled =
  | OnlineAction
  | { type: 'onlineUsers'; users: OnlineUser[]; onlineCount?: number; next?: string | null }
  | { type: 'userJoined'; user: OnlineUser }
  | { type: 'userLeft'; userId: string };

export function onlineReducer(state: RoomState, action: { type: string }): RoomState {
  const a = action as Handled;
  switch (a.type) {
    case 'onlineUsers':
      return { ...state, onlineCount: a.onlineCount ?? a.users.length, onlineNext: a.next ?? null };
    case 'userJoined':
      return state.online.some((u) => u.id === a.user.id) ? state : { ...state, onlineCount: state.onlineCount + 1 };
    case 'userLeft': {
      const held = state.online.some((u) => u.id === a.userId);
      if (!held && state.onlineCount <= state.online.length) return state;
      return { ...state, onlineCount: Math.max(0, state.onlineCount - 1) };
    }
    case 'typingOthers':
      return { ...state, typingOthers: { ...state.typingOthers, [a.channelId]: { others: a.others, at: a.now } } };
    default:
      return state;
  }
}

/**
 * How many type in a channel beyond the typers shown (a big room's public channel), while fresh: a count not repeated
 * within LIMITS.typingExpireMs is over (the entry stays until the next count replaces it).
 */
export function typingOthersIn(state: RoomState, channelId: string | null, now: number): number {
  const t = channelId ? state.typingOthers[channelId] : undefined;
  return t && now - t.at < LIMITS.typingExpireMs ? t.others : 0;
}
