/**
 * Names and pictures follow the room's member list (docs/product/messages.md M20). Two other copies reach the client
 * holding the name a member had earlier: a stored message carries its author's name from when it was sent (sealed
 * with the message on the server), and the online list the name a member connected with (presence). The member
 * list (workspace.users: read on every join, kept current by user-profile-updated) is the one current record, so
 * whatever arrives from the other two is rewritten to it here, once, and every view reads current names from the
 * state. A member who left is no longer in the list: their messages keep the name they were sent under.
 * Runs after the core merge (roomState.ts SLICES).
 */
import type { Message, OnlineUser, RoomUser } from '@ephemera/proto';
import type { RoomState } from './roomCore.ts';

type Directory = ReadonlyMap<string, RoomUser>;

const directoryOf = (state: RoomState): Directory | null =>
  state.workspace?.users.length ? new Map(state.workspace.users.map((u) => [u.id, u])) : null;

function stale(m: Message, dir: Directory): RoomUser | null {
  const u = dir.get(m.authorId);
  return u && (u.username !== m.authorName || (u.profilePicture ?? null) !== (m.profilePicture ?? null)) ? u : null;
}

/** The held messages of the given channels (all when omitted) with current author names; unchanged lists kept. */
function currentAuthors(state: RoomState, dir: Directory, channelIds?: ReadonlySet<string>): RoomState {
  let messages = state.messages;
  for (const [channelId, list] of Object.entries(state.messages)) {
    if (channelIds && !channelIds.has(channelId)) continue;
    if (!list.some((m) => stale(m, dir))) continue;
    if (messages === state.messages) messages = { ...state.messages };
    messages[channelId] = list.map((m) => {
      const u = stale(m, dir);
      return u ? { ...m, authorName: u.username, profilePicture: u.profilePicture } : m;
    });
  }
  return messages === state.messages ? state : { ...state, messages };
}

function currentOnline(state: RoomState, dir: Directory): RoomState {
  let changed = false;
  const online = state.online.map((o): OnlineUser => {
    const name = dir.get(o.id)?.username;
    if (!name || name === o.username) return o;
    changed = true;
    return { ...o, username: name };
  });
  return changed ? { ...state, online } : state;
}

export function namesReducer(state: RoomState, action: { type: string }): RoomState {
  if (
    action.type !== 'joined' &&
    action.type !== 'onlineUsers' &&
    action.type !== 'userJoined' &&
    action.type !== 'messagesMerged'
  )
    return state;
  const dir = directoryOf(state);
  if (!dir) return state;
  if (action.type === 'joined') return currentOnline(currentAuthors(state, dir), dir);
  if (action.type === 'messagesMerged') {
    const merged = (action as { messages?: Message[] }).messages ?? [];
    const channels = new Set(
      merged.filter((m) => m && typeof m.authorId === 'string' && stale(m, dir)).map((m) => m.channelId),
    );
    return channels.size ? currentAuthors(state, dir, channels) : state;
  }
  return currentOnline(state, dir);
}
