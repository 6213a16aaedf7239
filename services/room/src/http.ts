/**
 * HTTP: the public room API (specs/rooms.md section 7) and the internal routes the gateway calls in distributed
 * mode. Handlers translate only: parse, call one use case, answer.
 */
import express from 'express';
import { INTERNAL, CreateChannelSchema, JoinWorkspaceSchema, JoinChannelSchema } from '@ephemera/proto';
import { actorOf, parseOrThrow, route } from '@ephemera/platform';
import type { RoomService } from './room-service.ts';

export function publicRoomRouter(rooms: RoomService): express.Router {
  const r = express.Router();
  r.get('/api/workspaces/check-name/:name', route(async (req, res) => { res.json(await rooms.checkName(String(req.params.name))); }));
  r.get('/api/workspaces/room/:roomName', route(async (req, res) => { res.json(await rooms.lookupByName(String(req.params.roomName))); }));
  r.get('/api/workspaces/:id/info', route(async (req, res) => { res.json(await rooms.info(String(req.params.id))); }));
  r.get('/api/workspaces/:id/check-username/:username', route(async (req, res) => {
    res.json(await rooms.checkUsername(String(req.params.id), String(req.params.username)));
  }));
  r.post('/api/workspaces', route(async (req, res) => { res.status(201).json(await rooms.createWorkspace(req.body)); }));
  r.post('/api/workspaces/:id/join', route(async (req, res) => { res.json(await rooms.joinWorkspace(String(req.params.id), req.body)); }));
  return r;
}

export function internalRoomRouter(rooms: RoomService): express.Router {
  const r = express.Router();
  r.post(INTERNAL.authenticate, route(async (req, res) => {
    const input = parseOrThrow(JoinWorkspaceSchema, req.body);
    res.json(await rooms.authenticate(input));
  }));
  r.post(INTERNAL.createChannel, route(async (req, res) => {
    res.json(await rooms.createChannel(actorOf(req.body), parseOrThrow(CreateChannelSchema, req.body.input)));
  }));
  r.post(INTERNAL.getChannelForMember, route(async (req, res) => {
    res.json(await rooms.getChannelForMember(actorOf(req.body), parseOrThrow(JoinChannelSchema, req.body.input).channelId));
  }));
  return r;
}
