/**
 * Message search: the query's words become tokens under the room's key, and the index answers the messages that
 * contain every one of them (exact words after normalization), newest first, at most LIMITS.searchResultsMax,
 * only in channels the searcher may read (public topic channels, and private channels and DMs they are a member of).
 * The hits are opened with the room's key (sealed-messages.ts) before they are answered.
 *
 * Two plans, because word frequencies differ by orders of magnitude (search-repository.ts): the newest-first walk
 * looks at the room's recent entries; if it finds a full page there, that page is the answer (nothing newer was
 * skipped), otherwise the GIN query answers.
 */
import { LIMITS, type Message, type SessionActor } from '@ephemera/proto';
import type { Pool, RoomKeyring } from '@ephemera/platform';
import { searchTokens } from './tokens.ts';
import { openMessage, servingKey } from '../sealed-messages.ts';
import { indexedMatches, matchesAmongRecent } from './search-repository.ts';

export async function searchMessages(
  pool: Pool,
  keyring: RoomKeyring,
  actor: SessionActor,
  query: string,
): Promise<Message[]> {
  const key = await servingKey(keyring, actor.workspaceId);
  const tokens = searchTokens(key, query);
  if (tokens.length === 0) return [];
  const params = [actor.workspaceId, tokens.map(String), actor.userId, LIMITS.searchResultsMax] as const;
  const recent = await matchesAmongRecent(pool, ...params);
  if (recent.length === LIMITS.searchResultsMax) return recent.map((r) => openMessage(key, r));
  // Few matches: take them all through the GIN index, then order the handful.
  const all = await indexedMatches(pool, ...params);
  return all.map((r) => openMessage(key, r));
}
