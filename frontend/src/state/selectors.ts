/** Derived views of the room state (the sidebar's conversation list is in conversationSelectors.ts). */
import type { Channel } from '@ephemera/proto';
import type { RoomState } from './roomState.ts';

export function totalUnread(state: RoomState): number {
  let n = 0;
  for (const c of state.channels) n += state.unread[c.id] ?? 0;
  return n;
}

export function currentChannel(state: RoomState): Channel | null {
  return state.channels.find((c) => c.id === state.currentChannelId) ?? null;
}

/** Online members of a channel: everyone online for a public channel, online members for a private one. */
export function membersOnline(state: RoomState, channel: Channel | null): number {
  if (!channel) return state.online.length;
  if (!channel.isPrivate) return state.online.length;
  const members = new Set(channel.memberIds);
  return state.online.filter((u) => members.has(u.id)).length;
}
