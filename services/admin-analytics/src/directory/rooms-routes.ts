/**
 * The Rooms tab's routes (behind the superadmin check): the list (a page of the search and status over every room,
 * with the totals), extend and delete (done by the room service,
 * AdminRoomsApi), and the moderation viewer (messaging, AdminMessagingApi). Every action and every opening of a
 * room's messages is audited.
 */
import express from 'express';
import { AdminExtendRoomBodySchema, DomainError, type AdminRoomsPage } from '@ephemera/proto';
import { parseOrThrow } from '@ephemera/platform';
import type { AdminContext } from '../context.ts';
import { adminOf } from '../superadmin.ts';
import { messagesLimit, reasonOf, roomIdParam, roomsQuery } from './inputs.ts';
import { directoryShows, roomExists, roomsPage, untilProjected } from './read-model.ts';
import { presentRoom } from './present.ts';
import { publicRoute } from '@ephemera/platform';
import { adminCallers } from '../superadmin.ts';

export function roomsRouter(ctx: AdminContext): express.Router {
  const r = express.Router();
  const callers = adminCallers(ctx);
  const { pool } = ctx;
  const shows = (what: string, check: () => Promise<boolean>) => untilProjected(ctx, what, check);

  publicRoute(r, 'adminRooms', callers, async (req, res) => {
    const q = roomsQuery(req);
    const now = ctx.now();
    const { rows, total, totals } = await roomsPage(pool, ctx.accountFields, { ...q, now });
    const answer: AdminRoomsPage = {
      rooms: rows.map((row) => presentRoom(row, now)),
      page: q.page,
      pageSize: q.pageSize,
      total,
      totals,
    };
    res.json({ success: true, ...answer });
  });

  publicRoute(r, 'adminDeleteRoom', callers, async (req, res) => {
    const reason = reasonOf(req.body);
    const workspaceId = roomIdParam(req);
    await ctx.rooms.deleteByAdmin({ workspaceId, reason });
    await ctx.events.audit(adminOf(res), 'room.deleted', workspaceId, reason);
    await shows('room deleted', () => directoryShows.roomDeleted(pool, workspaceId));
    res.json({ success: true, message: 'Room delete completed successfully', workspaceId });
  });

  publicRoute(r, 'adminExtendRoom', callers, async (req, res) => {
    const { hours } = parseOrThrow(AdminExtendRoomBodySchema, req.body ?? {});
    const workspaceId = roomIdParam(req);
    const { expiresAt } = await ctx.rooms.extendByAdmin({ workspaceId, hours });
    await ctx.events.audit(adminOf(res), 'room.extended', workspaceId, null, { hours, expiresAt });
    await shows('room extended', () => directoryShows.roomExpiry(pool, workspaceId, expiresAt));
    res.json({ success: true, message: 'Room extend completed successfully', workspaceId, expiresAt });
  });

  publicRoute(r, 'adminRoomMessages', callers, async (req, res) => {
    const limit = messagesLimit(req);
    const workspaceId = roomIdParam(req);
    if (!(await roomExists(pool, workspaceId))) throw new DomainError('WORKSPACE_NOT_FOUND');
    const messages = await ctx.messaging.moderationMessages({ workspaceId, limit });
    // Reading a room's messages is itself a superadmin action (docs/product/security.md S22): recorded before they
    // are shown.
    await ctx.events.audit(adminOf(res), 'room.messages-read', workspaceId, null, {
      count: messages.length,
      undecryptable: messages.filter((m) => !m.isDecrypted).length,
    });
    res.json({ success: true, messages });
  });
  return r;
}
