/**
 * Internal routes the gateway calls in distributed mode: parse { actor, input }, call one use case, answer. Also
 * callable through the batch route (the calls of one gateway event-loop turn in one request).
 */
import express from 'express';
import { z } from 'zod';
import {
  INTERNAL,
  SendMessageSchema,
  FetchMessagesSchema,
  JoinChannelSchema,
  SyncMessagesSchema,
  EditMessageSchema,
  DeleteMessageSchema,
  AddReactionSchema,
  MarkReadSchema,
  SearchMessagesSchema,
} from '@ephemera/proto';
import { commandRoute, internalRouter, type Logger } from '@ephemera/platform';
import type { MessagingService } from './messaging-service.ts';

export function internalMessagingRouter(messaging: MessagingService, logger?: Logger): express.Router {
  const r = internalRouter(INTERNAL.messagingBatch, logger);
  commandRoute(r, INTERNAL.sendMessage, SendMessageSchema, (a, i) => messaging.sendMessage(a, i));
  commandRoute(r, INTERNAL.fetchMessages, FetchMessagesSchema, (a, i) => messaging.fetchMessages(a, i));
  commandRoute(r, INTERNAL.joinChannel, JoinChannelSchema, (a, i) => messaging.joinChannel(a, i));
  commandRoute(r, INTERNAL.syncMessages, SyncMessagesSchema, (a, i) => messaging.syncMessages(a, i));
  commandRoute(r, INTERNAL.editMessage, EditMessageSchema, (a, i) => messaging.editMessage(a, i));
  commandRoute(r, INTERNAL.deleteMessage, DeleteMessageSchema, (a, i) => messaging.deleteMessage(a, i));
  commandRoute(r, INTERNAL.addReaction, AddReactionSchema, (a, i) => messaging.addReaction(a, i));
  commandRoute(r, INTERNAL.markRead, MarkReadSchema, (a, i) => messaging.markRead(a, i));
  commandRoute(r, INTERNAL.channelSummaries, z.object({}), (a) => messaging.channelSummaries(a));
  commandRoute(r, INTERNAL.searchMessages, SearchMessagesSchema, (a, i) => messaging.searchMessages(a, i));
  return r;
}
