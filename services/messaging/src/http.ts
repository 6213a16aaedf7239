/** Internal routes the gateway calls in distributed mode. */
import express from 'express';
import { z } from 'zod';
import { INTERNAL, SendMessageSchema, FetchMessagesSchema, SyncMessagesSchema, type SessionActor } from '@ephemera/proto';
import { parseOrThrow, route } from '@ephemera/platform';
import type { MessagingService } from './messaging-service.ts';

const ActorSchema = z.object({ workspaceId: z.string(), userId: z.string(), username: z.string() });
const actorOf = (body: unknown): SessionActor => parseOrThrow(ActorSchema, (body as { actor?: unknown })?.actor);

export function internalMessagingRouter(messaging: MessagingService): express.Router {
  const r = express.Router();
  r.post(INTERNAL.sendMessage, route(async (req, res) => {
    res.json(await messaging.sendMessage(actorOf(req.body), parseOrThrow(SendMessageSchema, req.body.input)));
  }));
  r.post(INTERNAL.fetchMessages, route(async (req, res) => {
    res.json(await messaging.fetchMessages(actorOf(req.body), parseOrThrow(FetchMessagesSchema, req.body.input)));
  }));
  r.post(INTERNAL.syncMessages, route(async (req, res) => {
    res.json(await messaging.syncMessages(actorOf(req.body), parseOrThrow(SyncMessagesSchema, req.body.input)));
  }));
  return r;
}
