/** The room's people: presence status, profile changes, members who left for good, and who is typing where. */
import { LIMITS } from '@ephemera/proto/client';
import type { PresenceStatus } from '@ephemera/proto';
import type { RoomState } from './roomCore.ts';

export type PeopleAction =
  | { type: 'presenceUpdated'; userId: string; status: PresenceStatus }
  | { type: 'profileUpdated'; userId: string; username: string; profilePicture: string | null }
  /** user-left with membershipEnded: gone from the room, not only offline */
  | { type: 'memberLeft'; userId: string }
  | { type: 'typingStarted'; channelId: string; userId: string; username: string; now: number }
  | { type: 'typingStopped'; channelId: string; userId: string }
  /** drop indicators not refreshed within LIMITS.typingExpireMs (a typer that vanished) */
  | { type: 'typingExpired'; now: number };

function withoutTyper(state: RoomState, channelId: string, userId: string): RoomState {
  const inChannel = state.typing[channelId];
  if (!inChannel || !(userId in inChannel)) return state;
  const nextChannel = { ...inChannel };
  delete nextChannel[userId];
  const typing = { ...state.typing };
  if (Object.keys(nextChannel).length) typing[channelId] = nextChannel;
  else delete typing[channelId];
  return { ...state, typing };
}

export function peopleReducer(state: RoomState, action: PeopleAction | { type: string }): RoomState {
  if (action.type === 'messagesMerged') {
    // a typer whose message arrived has stopped typing there
    const merged = action as { type: string; messages?: { channelId: string; authorId: string }[]; source?: string };
    if (merged.source !== 'live' || !Object.keys(state.typing).length) return state;
    let next = state;
    for (const m of merged.messages ?? []) if (m) next = withoutTyper(next, m.channelId, m.authorId);
    return next;
  }
  const a = action as PeopleAction;
  switch (a.type) {
    case 'presenceUpdated': {
      const set = <U extends { id: string; presenceStatus: PresenceStatus }>(u: U): U =>
        u.id === a.userId ? { ...u, presenceStatus: a.status } : u;
      return {
        ...state,
        online: state.online.map(set),
        workspace: state.workspace ? { ...state.workspace, users: state.workspace.users.map(set) } : null,
        user: state.user ? set(state.user) : null,
      };
    }
    case 'profileUpdated': {
      const setName = <U extends { id: string; username: string }>(u: U): U =>
        u.id === a.userId ? { ...u, username: a.username } : u;
      const setAll = <U extends { id: string; username: string; profilePicture: string | null }>(u: U): U =>
        u.id === a.userId ? { ...u, username: a.username, profilePicture: a.profilePicture } : u;
      let messages = state.messages;
      for (const [channelId, list] of Object.entries(state.messages)) {
        if (!list.some((m) => m.authorId === a.userId)) continue;
        if (messages === state.messages) messages = { ...state.messages };
        messages[channelId] = list.map((m) =>
          m.authorId === a.userId ? { ...m, authorName: a.username, profilePicture: a.profilePicture } : m,
        );
      }
      return {
        ...state,
        online: state.online.map(setName),
        workspace: state.workspace ? { ...state.workspace, users: state.workspace.users.map(setAll) } : null,
        user: state.user ? setAll(state.user) : null,
        messages,
      };
    }
    case 'memberLeft':
      return {
        ...state,
        online: state.online.filter((u) => u.id !== a.userId),
        workspace: state.workspace
          ? { ...state.workspace, users: state.workspace.users.filter((u) => u.id !== a.userId) }
          : null,
      };
    case 'typingStarted':
      if (state.user && a.userId === state.user.id) return state;
      return {
        ...state,
        typing: {
          ...state.typing,
          [a.channelId]: { ...state.typing[a.channelId], [a.userId]: { username: a.username, at: a.now } },
        },
      };
    case 'typingStopped':
      return withoutTyper(state, a.channelId, a.userId);
    case 'typingExpired': {
      let next = state;
      for (const [channelId, typers] of Object.entries(state.typing)) {
        for (const [userId, entry] of Object.entries(typers)) {
          if (a.now - entry.at >= LIMITS.typingExpireMs) next = withoutTyper(next, channelId, userId);
        }
      }
      return next;
    }
    default:
      return state;
  }
}
