/**
 * The users and rooms directory (docs/product/admin.md ADM4-ADM7, the Users and Rooms tabs): admin.accounts and admin.rooms projected from
 * the billing and room topics (projection.ts), the lists and the superadmin's actions on accounts (users-routes.ts)
 * and rooms, with the moderation viewer (rooms-routes.ts). The actions are the owning services' commands (billing,
 * room, messaging: proto/src/admin-ports.ts); this part audits each and answers once its read model shows it.
 */
import express from 'express';
import type { AdminContext } from '../context.ts';
import { usersRouter } from './users-routes.ts';
import { roomsRouter } from './rooms-routes.ts';

export { projectDirectory } from './projection.ts';
export { sealLegacyDirectory } from './legacy.ts';

/** this part's /api/admin/ routes; mounted after the superadmin check */
export function directoryRouter(ctx: AdminContext): express.Router {
  const r = express.Router();
  r.use(usersRouter(ctx));
  r.use(roomsRouter(ctx));
  return r;
}
