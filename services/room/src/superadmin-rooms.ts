/**
 * The superadmin's actions on rooms (AdminRoomsApi; docs/product/admin.md ADM6). The room service records its own events,
 * as system commands under the room's lock (the superadmin is no member of the room):
 *   extend  workspace.extended by 168 or 720 hours from the current expiry; a room that never expires (business)
 *           answers NEVER_EXPIRES (400).
 *   delete  as the owner's delete-workspace: the key is destroyed first, then workspace.deleted (deletedBy
 *           'superadmin'), which every gateway turns into the members' deleted notice. A room already past its
 *           expiry but not yet swept is expired now instead (it is gone either way).
 * The reason is the superadmin's audit event's (admin topic, sealed under the admin key), not the room's tombstone:
 * workspace.deleted stays readable in the log after the key is gone, so it carries nothing the admin typed.
 * Inputs are parsed here: in distributed mode they arrive over internal-rpc as plain JSON.
 */
import { z } from 'zod';
import { ADMIN_TEXT, AdminExtendRoomBodySchema, DomainError, IdSchema, type AdminRoomsApi } from '@ephemera/proto';
import { makeEvent, parseOrThrow, systemActor } from '@ephemera/platform';
import type { RoomService } from './room-service.ts';
import { expireRoom } from './room-lifetime.ts';
import { toWorkspaceUpdate } from './repository.ts';

const HOUR_MS = 3_600_000;
/** who deleted the room, as workspace.deleted says it (a member's id otherwise) */
export const SUPERADMIN_ACTOR = 'superadmin';

const ExtendInput = AdminExtendRoomBodySchema.extend({ workspaceId: IdSchema });
const DeleteInput = z.object({
  workspaceId: IdSchema,
  reason: z.string().trim().min(1, ADMIN_TEXT.reasonRequired).max(500),
});

export class AdminRooms implements AdminRoomsApi {
  constructor(private readonly rooms: RoomService) {}

  async extendByAdmin(input: {
    workspaceId: string;
    hours: 168 | 720;
  }): Promise<{ workspaceId: string; expiresAt: string | null }> {
    const { workspaceId, hours } = parseOrThrow(ExtendInput, input);
    const core = this.rooms.core;
    const answer = await core.systemCommand(workspaceId, async (cmd) => {
      if (cmd.ws.expiresAt === null)
        throw new DomainError('NEVER_EXPIRES', 'This room never expires: there is nothing to extend');
      const from = Math.max(cmd.ws.expiresAt.getTime(), core.now().getTime());
      const expiresAt = new Date(from + hours * HOUR_MS);
      const after = { ...cmd.ws, expiresAt };
      await cmd.record([
        cmd.event('workspace.extended', {
          workspaceId: cmd.ws.id,
          additionalHours: hours,
          expiresAt: expiresAt.toISOString(),
          workspace: toWorkspaceUpdate(after),
        }),
      ]);
      return { workspaceId: cmd.ws.id, expiresAt: expiresAt.toISOString() };
    });
    if (!answer) throw new DomainError('WORKSPACE_NOT_FOUND');
    return answer;
  }

  async deleteByAdmin(input: { workspaceId: string; reason: string }): Promise<{ workspaceId: string }> {
    const { workspaceId } = parseOrThrow(DeleteInput, input);
    const core = this.rooms.core;
    return core.mutex.run(`ws:${workspaceId}`, async () => {
      const ws = await core.repo.workspaceById(workspaceId);
      if (!ws) throw new DomainError('WORKSPACE_NOT_FOUND');
      if (!core.isLive(ws)) {
        await expireRoom(core, ws); // past its expiry, not yet swept: the key goes, then workspace.expired
        return { workspaceId: ws.id };
      }
      await core.destroyRoomKey(ws.id);
      const deletedAt = core.now().toISOString();
      await core.record([
        {
          ...makeEvent(
            'workspace.deleted',
            ws.id,
            ws.lastSeq + 1,
            { workspaceId: ws.id, name: ws.name, deletedBy: SUPERADMIN_ACTOR, deletedAt },
            systemActor,
          ),
          occurredAt: deletedAt,
        },
      ]);
      return { workspaceId: ws.id };
    });
  }
}
