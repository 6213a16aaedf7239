/**
 * The room's member names for marking mentions in messages (docs/product/messages.md, Mentions), given to every
 * MessageText below it through context, so the message list's rows need no new props.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { RoomState } from '../state/roomState.ts';
import type { MentionContext } from '../lib/messageInline.ts';

const Mentions = createContext<MentionContext | null>(null);

export function MentionsProvider({ state, children }: { state: RoomState; children: ReactNode }) {
  const self = state.user?.username ?? null;
  // the same names give the same object, so formatted messages are not parsed again when another member field changes
  const joined = (state.workspace?.users ?? []).map((u) => u.username).join('\n');
  const value = useMemo(() => ({ names: joined ? joined.split('\n') : [], self }), [joined, self]);
  return <Mentions.Provider value={value}>{children}</Mentions.Provider>;
}

/** the mention context of the room around the caller (null outside a room) */
export function useMentions(): MentionContext | null {
  return useContext(Mentions);
}
