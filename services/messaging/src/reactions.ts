/**
 * The reaction rule (docs/product/messages.md M5): adding the same emoji again removes the user's reaction, another
 * emoji moves it (one reaction per user per message), and emoji entries left empty are dropped.
 */
export type Reactions = Record<string, string[]>;

/** The whole map after `userId` reacts with `emoji`; `emoji` in the answer is null when the reaction was removed. */
export function react(
  reactions: Reactions,
  userId: string,
  emoji: string,
): { reactions: Reactions; emoji: string | null } {
  const previous = Object.keys(reactions).find((e) => reactions[e]!.includes(userId)) ?? null;
  const next: Reactions = {};
  for (const [e, userIds] of Object.entries(reactions)) {
    const rest = userIds.filter((id) => id !== userId);
    if (rest.length > 0) next[e] = rest;
  }
  if (previous === emoji) return { reactions: next, emoji: null };
  next[emoji] = [...(next[emoji] ?? []), userId];
  return { reactions: next, emoji };
}
