/**
 * Message search as part of the messaging service: the index projector is composed into messaging's own
 * projection (same transaction, same processed-events record, so a send batch stays one transaction and a replay
 * rebuilds the index with everything else), and the query runs on the result.
 */
import type { Message, SessionActor } from '@ephemera/proto';
import { eventRuns, type Pool, type Projector, type RoomKeyring } from '@ephemera/platform';
import { searchIndexProjector } from './index-projection.ts';
import { searchMessages } from './search-messages.ts';

export interface MessageSearch {
  /** the index's projector, to run after messagingProjector in the same transaction */
  projector: Projector;
  search(actor: SessionActor, query: string): Promise<Message[]>;
}

/** Tokens and results under each room's own key (the keyring: docs/crypto.md, docs/search.md). */
export function messageSearch(pool: Pool, keyring: RoomKeyring): MessageSearch {
  return {
    projector: searchIndexProjector(keyring),
    search: (actor, query) => searchMessages(pool, keyring, actor, query),
  };
}

/**
 * Several projectors applied one after the other to each event (inside one applyOnce transaction). A batch goes
 * through them run by run (eventRuns): every projector has a run of sends before the next event, as one by one.
 */
export function composeProjectors(...projectors: Projector[]): Projector {
  const project: Projector = async (db, event) => {
    for (const p of projectors) await p(db, event);
  };
  project.many = async (db, events) => {
    for (const run of eventRuns(events, 'message.sent')) {
      for (const p of projectors) {
        if (p.many) await p.many(db, run.events);
        else for (const event of run.events) await p(db, event);
      }
    }
  };
  return project;
}
