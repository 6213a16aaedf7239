/**
 * HTTP: the public room API (specs/rooms.md section 7) and the internal routes the gateway calls in distributed
 * mode. Handlers translate only: parse, call one use case, answer.
 */
import express from 'express';
import { z } from 'zod';
import {
  INTERNAL, CreateChannelSchema, JoinWorkspaceSchema, JoinChannelSchema, CreateDmChannelSchema, DeleteDmSchema,
  DeleteChannelSchema, RenameChannelSchema, UpdateChannelMembersSchema, UpdateProfileSchema, DomainError,
} from '@ephemera/proto';
import { commandRoute, parseOrThrow, route, rateLimited, createRateLimits, type RateLimits } from '@ephemera/platform';
import type { RoomService } from './room-service.ts';

/**
 * Rate limits (SECURITY.md 6) by client address (req.ip: the app's trust proxy decides whose X-Forwarded-For
 * counts): name checks, room creations, and wrong passwords per address and per room (only failures count).
 */
export function publicRoomRouter(rooms: RoomService, limits: RateLimits = createRateLimits()): express.Router {
  const r = express.Router();
  const checks = rateLimited(limits, 'nameChecksPerAddress');
  r.get('/api/workspaces/check-name/:name', checks, route(async (req, res) => { res.json(await rooms.checkName(String(req.params.name))); }));
  r.get('/api/workspaces/room/:roomName', route(async (req, res) => { res.json(await rooms.lookupByName(String(req.params.roomName))); }));
  r.get('/api/workspaces/:id/info', route(async (req, res) => { res.json(await rooms.info(String(req.params.id))); }));
  r.get('/api/workspaces/:id/check-username/:username', checks, route(async (req, res) => {
    res.json(await rooms.checkUsername(String(req.params.id), String(req.params.username)));
  }));
  r.post('/api/workspaces', rateLimited(limits, 'roomCreationsPerAddress'), route(async (req, res) => { res.status(201).json(await rooms.createWorkspace(req.body)); }));
  r.post('/api/workspaces/:id/join', route(async (req, res) => {
    const roomId = String(req.params.id);
    const address = req.ip ?? 'unknown';
    await limits.check('passwordFailuresPerAddress', address);
    await limits.check('passwordFailuresPerRoom', roomId);
    try {
      res.json(await rooms.joinWorkspace(roomId, req.body));
    } catch (err) {
      if (err instanceof DomainError && err.code === 'PASSWORD_WRONG') {
        await Promise.all([limits.penalize('passwordFailuresPerAddress', address), limits.penalize('passwordFailuresPerRoom', roomId)]);
      }
      throw err;
    }
  }));
  return r;
}

export function internalRoomRouter(rooms: RoomService): express.Router {
  const r = express.Router();
  r.post(INTERNAL.authenticate, route(async (req, res) => {
    const input = parseOrThrow(JoinWorkspaceSchema, req.body);
    res.json(await rooms.authenticate(input));
  }));
  commandRoute(r, INTERNAL.createChannel, CreateChannelSchema, (a, i) => rooms.createChannel(a, i));
  commandRoute(r, INTERNAL.getChannelForMember, JoinChannelSchema, (a, i) => rooms.getChannelForMember(a, i.channelId));
  commandRoute(r, INTERNAL.createDmChannel, CreateDmChannelSchema, (a, i) => rooms.createDmChannel(a, i));
  commandRoute(r, INTERNAL.deleteDm, DeleteDmSchema, (a, i) => rooms.deleteDm(a, i));
  commandRoute(r, INTERNAL.deleteChannel, DeleteChannelSchema, (a, i) => rooms.deleteChannel(a, i));
  commandRoute(r, INTERNAL.renameChannel, RenameChannelSchema, (a, i) => rooms.renameChannel(a, i));
  commandRoute(r, INTERNAL.updateChannelMembers, UpdateChannelMembersSchema, (a, i) => rooms.updateChannelMembers(a, i));
  commandRoute(r, INTERNAL.updateProfile, UpdateProfileSchema, (a, i) => rooms.updateProfile(a, i));
  commandRoute(r, INTERNAL.leaveWorkspace, z.object({}), (a) => rooms.leaveWorkspace(a));
  return r;
}
