/**
 * Reactions (docs/product/messages.md M5): the rule the server applies, for the optimistic update, and the
 * chips a message shows. The server's whole map (ack or reaction-added) replaces the optimistic one, so every
 * client converges (messageEventsSlice.ts 'reactionsChanged').
 */
export type Reactions = Record<string, string[]>;

/** The six quick reactions, in the spec's order: thumbs up, heart, laughing, surprised, sad, praying hands. */
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

/**
 * The same emoji again by the same user removes it, another emoji moves the user's reaction (one reaction per user
 * per message), empty entries are dropped.
 */
export function toggleReaction(reactions: Reactions, userId: string, emoji: string): Reactions {
  const had = reactions[emoji]?.includes(userId) ?? false;
  const next: Reactions = {};
  for (const [e, users] of Object.entries(reactions)) {
    const rest = users.filter((u) => u !== userId);
    if (rest.length) next[e] = rest;
  }
  if (!had) next[emoji] = [...(next[emoji] ?? []), userId];
  return next;
}

/** The emoji the user reacted with on a message, if any. */
export function myReaction(reactions: Reactions, userId: string | null | undefined): string | null {
  if (!userId) return null;
  for (const [emoji, users] of Object.entries(reactions)) if (users.includes(userId)) return emoji;
  return null;
}

export interface ReactionChip {
  emoji: string;
  count: number;
  mine: boolean;
}

/** One chip per emoji that has users, in the map's order (first reacted first). */
export function reactionChips(
  reactions: Reactions | null | undefined,
  userId: string | null | undefined,
): ReactionChip[] {
  const chips: ReactionChip[] = [];
  for (const [emoji, users] of Object.entries(reactions ?? {})) {
    if (!Array.isArray(users) || users.length === 0) continue;
    chips.push({ emoji, count: new Set(users).size, mine: Boolean(userId && users.includes(userId)) });
  }
  return chips;
}
