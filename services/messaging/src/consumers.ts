/**
 * Messaging's consumer of room events (module.ts subscribes it as messaging-rooms): each event is applied to the
 * read model (who may post where) through applyOnce, with what a removal needs around it: a removed room's bulk rows
 * purged first in batches (room-purge.ts) so the event's transaction stays short, and the stored file objects of a
 * deleted channel or a removed room deleted after it (their key is destroyed first, so what a failure leaves is
 * unreadable; a failure is logged, not retried).
 */
import { applyOnce, type Delivery, type Logger, type Pool, type Projector } from '@ephemera/platform';
import type { FileService } from './files/index.ts';
import type { MessagingService } from './messaging-service.ts';
import { purgeRoomInBatches } from './room-purge.ts';

export function roomEventsHandler(deps: {
  pool: Pool;
  project: Projector;
  service: MessagingService;
  files: FileService | null;
  logger: Logger;
}): (delivery: Delivery) => Promise<void> {
  const { pool, project, service, files, logger } = deps;
  return async ({ event }) => {
    // A deleted channel's files: their storage keys are read before the projection drops the rows.
    const channelFiles =
      event.type === 'channel.deleted' && files ? await files.storageKeysOfChannel(event.payload.channelId) : [];
    const roomRemoved = event.type === 'workspace.expired' || event.type === 'workspace.deleted';
    if (roomRemoved) await purgeRoomInBatches(pool, event.payload.workspaceId);
    await applyOnce(pool, 'messaging', [event], project);
    if (channelFiles.length)
      await files
        ?.removeObjects(channelFiles)
        .catch((err) => logger.warn({ err }, "removing a channel's files failed"));
    if (roomRemoved) {
      service.forgetWorkspace(event.payload.workspaceId);
      await files
        ?.removeRoom(event.payload.workspaceId)
        .catch((err) => logger.warn({ err }, "removing a room's files failed"));
    }
  };
}
