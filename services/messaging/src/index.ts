/** The messaging service as a module (embedded in-process, or its own process via main.ts). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOPICS } from '@ephemera/proto';
import { applyOnce, migrate, type EventLog, type Logger, type Pool } from '@ephemera/platform';
import { MessagingService } from './messaging-service.ts';
import { projectForMessaging } from './projection.ts';

export { MessagingService } from './messaging-service.ts';
export { internalMessagingRouter } from './http.ts';
export { MessagingClient } from './client.ts';
export { publicMessagingRouter, type PublicMessagingDeps } from './link-preview/index.ts';

export const MESSAGING_MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

export interface MessagingModule { service: MessagingService; stop(): Promise<void> }

export async function startMessagingModule(deps: { databaseUrl: string; pool: Pool; log: EventLog; logger: Logger; now?: () => Date; logSharesDatabase?: boolean }): Promise<MessagingModule> {
  await migrate(deps.databaseUrl, MESSAGING_MIGRATIONS, 'messaging');
  const service = new MessagingService(deps);
  const apply = (event: Parameters<typeof projectForMessaging>[1]) => applyOnce(deps.pool, 'messaging', [event], projectForMessaging);
  // Two consumers: room events (who may post where) and our own message events (replay, crash recovery).
  const rooms = await deps.log.subscribe({
    groupId: 'messaging-rooms', topics: [TOPICS.room], fromBeginning: true,
    handler: async ({ event }) => {
      await apply(event);
      if (event.type === 'workspace.expired') service.forgetWorkspace(event.payload.workspaceId);
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
  return { service, async stop() { await Promise.all([rooms.stop(), messages.stop()]); } };
}
export { startMessagingServer } from './server.ts';
