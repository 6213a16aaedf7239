/**
 * Message search as part of the messaging service: the index projector is composed into messaging's own
 * projection (same transaction, same processed-events record, so a send batch stays one transaction and a replay
 * rebuilds the index with everything else), and the query runs on the result.
 */
import type { Message, SessionActor } from '@ephemera/proto';
import type { Pool, Projector, RoomKeyring } from '@ephemera/platform';
import { searchIndexProjector } from './index-projection.ts';
import { searchMessages } from './search-messages.ts';

export interface MessageSearch {
  /** the index's projector, to run after messagingProjector in the same transaction */
  projector: Projector;
  search(actor: SessionActor, query: string): Promise<Message[]>;
}

/** Tokens and results under each room's own key (the keyring: docs/crypto.md, docs/search.md). */
export function messageSearch(pool: Pool, keyring: RoomKeyring): MessageSearch {
  return { projector: searchIndexProjector(keyring), search: (actor, query) => searchMessages(pool, keyring, actor, query) };
}

/** Several projectors applied one after the other to each event (inside one applyOnce transaction). */
export function composeProjectors(...projectors: Projector[]): Projector {
  return async (db, event) => { for (const p of projectors) await p(db, event); };
}
