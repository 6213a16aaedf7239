/**
 * The room's member names for marking mentions in messages (docs/product/messages.md, Mentions), given to every
 * MessageText below it through context, so the message list's rows need no new props.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { RoomState } from '../state/roomState.ts';
import type { MentionContext } from '../lib/messageInline.ts';

const Mentions = createContext<MentionContext | null>(null);

export function MentionsProvider({ state, children }: { state: RoomState; children: ReactNode }) {
  const users = state.workspace?.users;
  const self = state.user?.username ?? null;
  const value = useMemo(() => ({ names: (users ?? []).map((u) => u.username), self }), [users, self]);
  return <Mentions.Provider value={value}>{children}</Mentions.Provider>;
}

/** the mention context of the room around the caller (null outside a room) */
export function useMentions(): MentionContext | null {
  return useContext(Mentions);
}
