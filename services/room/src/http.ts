/**
 * HTTP: the public room API (docs/protocol.md) and the internal routes the gateway calls in distributed
 * mode. Handlers translate only: parse, call one use case, answer.
 */
import express from 'express';
import { INTERNAL, JoinWorkspaceSchema, AuthorizeCallSchema, AuthorizePresenceSchema } from '@ephemera/proto';
import {
  bearerOfRequest,
  commandRoute,
  commandRoutes,
  internalRoute,
  internalRouter,
  parseOrThrow,
  publicRoute,
  rateLimited,
  createRateLimits,
  roomMemberOf,
  type Callers,
  type Logger,
  type RateLimits,
} from '@ephemera/platform';
import type { RoomService } from './room-service.ts';
import { ChangeTierSchema } from './room-lifetime.ts';
import { PasswordGuard } from './password-guard.ts';

/** The member a room token (Authorization: Bearer) names, in the room the route or its body names. */
export const roomMemberCaller =
  (rooms: RoomService): Callers['member'] =>
  (req) => {
    const named =
      typeof req.params.id === 'string'
        ? req.params.id
        : typeof req.body?.workspaceId === 'string'
          ? req.body.workspaceId
          : null;
    return roomMemberOf(rooms, req, named);
  };

/**
 * Every route from its row of the authorization table (publicRoute). Rate limits by client address (req.ip: the
 * app's trust proxy decides whose X-Forwarded-For counts): name checks, room creations, and wrong passwords per
 * address and per room (password-guard.ts).
 */
export function publicRoomRouter(rooms: RoomService, limits: RateLimits = createRateLimits()): express.Router {
  const r = express.Router();
  const callers: Callers = { member: roomMemberCaller(rooms) };
  const checks = rateLimited(limits, 'nameChecksPerAddress');
  // Before /:id routes; identity is the bearer token's member, never the body's userEmail.
  publicRoute(
    r,
    'extendRoom',
    callers,
    async (req, res) => {
      res.json(await rooms.extendRoom(bearerOfRequest(req), req.body));
    },
    rateLimited(limits, 'roomExtensionsPerAddress'),
  );
  publicRoute(
    r,
    'checkName',
    callers,
    async (req, res) => {
      res.json(await rooms.checkName(String(req.params.name)));
    },
    checks,
  );
  publicRoute(r, 'roomByName', callers, async (req, res) => {
    res.json(await rooms.lookupByName(String(req.params.roomName)));
  });
  publicRoute(r, 'info', callers, async (req, res) => {
    res.json(await rooms.info(String(req.params.id)));
  });
  publicRoute(
    r,
    'checkUsername',
    callers,
    async (req, res) => {
      res.json(await rooms.checkUsername(String(req.params.id), String(req.params.username)));
    },
    checks,
  );
  publicRoute(
    r,
    'createWorkspace',
    callers,
    async (req, res) => {
      res.status(201).json(await rooms.createWorkspace(req.body));
    },
    rateLimited(limits, 'roomCreationsPerAddress'),
  );
  // Wrong passwords: per address, per room and per process (password-guard.ts).
  const guard = new PasswordGuard(limits);
  publicRoute(r, 'joinWorkspace', callers, async (req, res) => {
    const roomId = String(req.params.id);
    const address = req.ip ?? 'unknown';
    // The client gone (before or while its try waits for a turn): its try is dropped, not evaluated.
    const gone = new AbortController();
    if (req.socket.destroyed) gone.abort();
    else
      res.on('close', () => {
        if (!res.writableFinished) gone.abort();
      });
    res.json(
      await rooms.joinWorkspace(roomId, req.body, (password, stored) =>
        guard.check({ roomId, address, password, stored, signal: gone.signal }),
      ),
    );
  });
  return r;
}

/** The gateway's calls; also callable through the batch route (the calls of one gateway event-loop turn at once). */
export function internalRoomRouter(rooms: RoomService, logger?: Logger): express.Router {
  const r = internalRouter(INTERNAL.roomBatch, logger);
  commandRoutes(r, 'room', rooms); // every command the room owns (proto/src/commands.ts)
  internalRoute(r, INTERNAL.authenticate, (body) => rooms.authenticate(parseOrThrow(JoinWorkspaceSchema, body)));
  commandRoute(r, INTERNAL.authorizePresence, AuthorizePresenceSchema, (a, i) => rooms.authorizePresence(a, i));
  commandRoute(r, INTERNAL.authorizeCall, AuthorizeCallSchema, (a, i) => rooms.authorizeCall(a, i));
  // RoomTierChanged: for billing and tests inside the cluster; no public route leads here (the ingress and the
  // gateways forward /api only).
  internalRoute(r, INTERNAL.changeTier, (body) => rooms.changeTier(parseOrThrow(ChangeTierSchema, body)));
  return r;
}
