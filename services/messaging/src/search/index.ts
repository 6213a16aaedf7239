/** Message search as a module of the messaging service: its projection (own consumer group) and its query. */
import { TOPICS, type Message, type SessionActor } from '@ephemera/proto';
import { applyOnce, type EventLog, type Pool, type Subscription } from '@ephemera/platform';
import { searchIndexProjector } from './index-projection.ts';
import { searchMessages } from './search-messages.ts';
import type { RoomKeyOf } from './keys.ts';

export { roomSearchKeys, parseMasterKey, masterKeyFile, type RoomKeyOf } from './keys.ts';

export interface MessageSearch {
  search(actor: SessionActor, query: string): Promise<Message[]>;
  /** the index has applied everything in the log when this resolves */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

export async function startMessageSearch(deps: { pool: Pool; log: EventLog; keyOf: RoomKeyOf; groupId?: string }): Promise<MessageSearch> {
  const project = searchIndexProjector(deps.keyOf);
  const subscription: Subscription = await deps.log.subscribe({
    groupId: deps.groupId ?? 'messaging-search-index', topics: [TOPICS.messaging, TOPICS.room], fromBeginning: true,
    handler: async ({ event }) => { await applyOnce(deps.pool, 'messaging_search', [event], project); },
  });
  await subscription.caughtUp();
  return {
    // A search sees every message acknowledged before it (the index is a few milliseconds behind the log).
    search: async (actor, query) => { await subscription.caughtUp(); return searchMessages(deps.pool, deps.keyOf, actor, query); },
    caughtUp: () => subscription.caughtUp(),
    stop: () => subscription.stop(),
  };
}
