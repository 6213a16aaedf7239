/**
 * HTTP for rooms and accounts (docs/product/accounts.md A7-A9). Public routes that act for a signed-in account
 * (Authorization: Bearer
 * {session token}, resolved by billing: AccountSessionsApi), mounted before the room router so that the same paths
 * without an account session fall through to it unchanged:
 *   GET    /api/workspaces/room/{roomName}?email=   + ownerToken when the session's account owns the room
 *   POST   /api/workspaces                          the dashboard's create (tier of the account, claimed at once)
 *   POST   /api/workspaces/{id}/claim-ownership     body { userToken } of the guest owner
 *   DELETE /api/workspaces/{id}                     the claiming account only
 * and the internal routes billing calls (ACCOUNT_INTERNAL).
 */
import express from 'express';
import { z } from 'zod';
import {
  ACCOUNT_INTERNAL,
  TierSchema,
  ClaimOwnershipBodySchema,
  type AccountSessionsApi,
  type SessionAccount,
} from '@ephemera/proto';
import {
  accountOf,
  parseOrThrow,
  publicRoute,
  rateLimited,
  route,
  sessionAccountCaller,
  sessionBearerOfRequest,
  type Callers,
  type RateLimits,
} from '@ephemera/platform';
import type { RoomService } from './room-service.ts';

/** Routes shared with the room router: without an account session the request goes on to the room router's route. */
const withSession: express.RequestHandler = (req, _res, next) => {
  next(sessionBearerOfRequest(req) ? undefined : 'route');
};

export function accountRoomRouter(
  rooms: RoomService,
  sessions: AccountSessionsApi,
  limits: RateLimits,
): express.Router {
  const r = express.Router();
  const callers: Callers<SessionAccount> = { account: sessionAccountCaller((token) => sessions.resolveSession(token)) };

  publicRoute(
    r,
    'roomByName',
    callers,
    async (req, res) => {
      const answer = await rooms.lookupByName(String(req.params.roomName));
      const account = await sessions.resolveSession(sessionBearerOfRequest(req)!);
      // ?email= names nobody: the token is only for the session's own account, and only if it owns the room.
      if (!account || !(await rooms.ownership.isOwnedBy(answer.workspaceId, account.accountId))) {
        res.json(answer);
        return;
      }
      const { ownerToken } = await rooms.ownership.ownerToken({ accountId: account.accountId, roomName: answer.name });
      res.json({ ...answer, ownerToken });
    },
    withSession,
  );
  publicRoute(
    r,
    'createWorkspace',
    callers,
    async (req, res) => {
      const account = await callers.account!(req);
      res.status(201).json(await rooms.ownership.createForAccount(account.account, req.body));
    },
    withSession,
    rateLimited(limits, 'roomCreationsPerAddress'),
  );
  publicRoute(r, 'claimOwnership', callers, async (req, res, caller) => {
    const { account } = accountOf(caller);
    const { userToken } = parseOrThrow(ClaimOwnershipBodySchema, req.body);
    res.json(
      await rooms.ownership.claim({
        workspaceId: String(req.params.id),
        userToken,
        accountId: account.accountId,
        tier: account.tier,
      }),
    );
  });
  publicRoute(r, 'deleteWorkspace', callers, async (req, res, caller) => {
    res.json(await rooms.ownership.deleteAsAccount(accountOf(caller).accountId, String(req.params.id)));
  });
  return r;
}

export function internalAccountRoomRouter(rooms: RoomService): express.Router {
  const r = express.Router();
  const account = z.object({ accountId: z.string().min(1).max(100) });
  r.post(
    ACCOUNT_INTERNAL.claimWorkspace,
    route(async (req, res) => {
      const input = parseOrThrow(
        account.extend({
          workspaceId: z.string().min(1).max(64),
          userToken: z.string().min(16).max(200),
          tier: TierSchema.optional(),
        }),
        req.body,
      );
      res.json(await rooms.ownership.claim(input));
    }),
  );
  r.post(
    ACCOUNT_INTERNAL.roomsOfAccount,
    route(async (req, res) => {
      res.json(await rooms.ownership.roomsOf(parseOrThrow(account, req.body).accountId));
    }),
  );
  r.post(
    ACCOUNT_INTERNAL.ownerToken,
    route(async (req, res) => {
      res.json(
        await rooms.ownership.ownerToken(
          parseOrThrow(account.extend({ roomName: z.string().min(1).max(64) }), req.body),
        ),
      );
    }),
  );
  r.post(
    ACCOUNT_INTERNAL.changeTierOfAccount,
    route(async (req, res) => {
      res.json(
        await rooms.ownership.changeTierOfAccount(
          parseOrThrow(account.extend({ tier: TierSchema, reason: z.string().min(1).max(200) }), req.body),
        ),
      );
    }),
  );
  r.post(
    ACCOUNT_INTERNAL.extendPaid,
    route(async (req, res) => {
      res.json(
        await rooms.ownership.extendPaid(
          parseOrThrow(
            z.object({
              roomId: z.string().min(1).max(64),
              additionalHours: z
                .number()
                .int()
                .positive()
                .max(24 * 366),
              reason: z.string().min(1).max(200),
            }),
            req.body,
          ),
        ),
      );
    }),
  );
  r.post(
    ACCOUNT_INTERNAL.deleteRoomsOfAccount,
    route(async (req, res) => {
      res.json(await rooms.ownership.deleteAllOf(parseOrThrow(account, req.body).accountId));
    }),
  );
  return r;
}
