/** The messaging service as a module (embedded in-process, or its own process via main.ts). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOPICS, type MessageLinkPreview } from '@ephemera/proto';
import { applyOnce, migrate, type EventLog, type Logger, type Pool, type RoomKeyring } from '@ephemera/platform';
import { MessagingService } from './messaging-service.ts';
import { messagingProjector } from './projection.ts';
import { messageSearch, composeProjectors, type MessageSearch } from './search/index.ts';

export { MessagingService } from './messaging-service.ts';
export { internalMessagingRouter } from './http.ts';
export { MessagingClient } from './client.ts';
export { publicMessagingRouter, linkPreviewServiceFromEnv, type PublicMessagingDeps } from './link-preview/index.ts';

export const MESSAGING_MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

/** The master key helpers live in the platform (docs/crypto.md); re-exported for the composition roots. */
export { masterKeyFile, parseMasterKey } from '@ephemera/platform';

export interface MessagingModule { service: MessagingService; search: MessageSearch; stop(): Promise<void> }

export async function startMessagingModule(deps: {
  databaseUrl: string; pool: Pool; log: EventLog; logger: Logger; now?: () => Date; logSharesDatabase?: boolean;
  /** room keys (docs/crypto.md): the read model and the search index are sealed / keyed under each room's key */
  keyring: RoomKeyring;
  /** the link-preview service whose cache a sent message's preview comes from (the same one the route uses) */
  linkPreviews?: { cached(url: string): MessageLinkPreview | null };
}): Promise<MessagingModule> {
  await migrate(deps.databaseUrl, MESSAGING_MIGRATIONS, 'messaging');
  const search = messageSearch(deps.pool, deps.keyring);
  const project = composeProjectors(messagingProjector(deps.keyring), search.projector);
  const service = new MessagingService({ ...deps, project });
  service.search = search;
  const apply = (event: Parameters<typeof project>[1]) => applyOnce(deps.pool, 'messaging', [event], project);
  // Two consumers: room events (who may post where) and our own message events (replay, crash recovery).
  const rooms = await deps.log.subscribe({
    groupId: 'messaging-rooms', topics: [TOPICS.room], fromBeginning: true,
    handler: async ({ event }) => {
      await apply(event);
      if (event.type === 'workspace.expired' || event.type === 'workspace.deleted') service.forgetWorkspace(event.payload.workspaceId);
    },
  });
  const messages = await deps.log.subscribe({
    groupId: 'messaging-projection', topics: [TOPICS.messaging], fromBeginning: true,
    // Events this process appended were applied on the command path already; skipping them here saves a
    // transaction per message. Anything else (another process, a replay, a crash in between) is applied.
    handler: async ({ event }) => { if (!service.takeAppliedHere(event.id)) await apply(event); },
  });
  await Promise.all([rooms.caughtUp(), messages.caughtUp()]);
  service.roomProjection = rooms;
  service.ownProjection = messages;
  return { service, search, async stop() { await Promise.all([rooms.stop(), messages.stop()]); } };
}
export { startMessagingServer } from './server.ts';
