/** Internal routes the gateway calls in distributed mode. */
import express from 'express';
import { INTERNAL, SendMessageSchema, FetchMessagesSchema, SyncMessagesSchema } from '@ephemera/proto';
import { actorOf, parseOrThrow, route } from '@ephemera/platform';
import type { MessagingService } from './messaging-service.ts';

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
