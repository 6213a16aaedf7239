/**
 * Internal routes the gateway calls in distributed mode: every command messaging owns, from the command table
 * (proto/src/commands.ts: parse { actor, input }, call the service's method of the command's name, answer). Also
 * callable through the batch route (the calls of one gateway event-loop turn in one request).
 */
import type express from 'express';
import { INTERNAL } from '@ephemera/proto';
import { commandRoutes, internalRouter, type Logger } from '@ephemera/platform';
import type { MessagingService } from './messaging-service.ts';

export function internalMessagingRouter(messaging: MessagingService, logger?: Logger): express.Router {
  const r = internalRouter(INTERNAL.messagingBatch, logger);
  commandRoutes(r, 'messaging', messaging);
  return r;
}
