/** Internal routes of the presence service (distributed mode) and the matching client. */
import express from 'express';
import { BIG_ROOM, INTERNAL, type OnlinePage, type OnlineUser, type PresenceApi } from '@ephemera/proto';
import { z } from 'zod';
import {
  internalRoute,
  internalRouter,
  parseOrThrow,
  serviceClient,
  type Logger,
  type ServiceCredential,
} from '@ephemera/platform';
import type { PresenceService } from './presence-service.ts';

const id = z.string().min(1).max(64);
/** Names arrive sealed by the gateway (sealed-presence.ts): `e1.` + base64url(nonce, name, tag), ~200 characters at most. */
const sealedName = z.string().max(512);
const OnlineUserSchema = z.object({
  id,
  username: sealedName,
  isAdmin: z.boolean(),
  presenceStatus: z.enum(['online', 'away', 'busy']),
});
const pageSize = z.number().int().min(1).max(BIG_ROOM.onlinePageSize);
const ConnectSchema = z.object({
  workspaceId: id,
  user: OnlineUserSchema,
  connectionId: id,
  gatewayId: id,
  firstPage: pageSize.optional(),
});
const OnlinePageSchema = z.object({ workspaceId: id, after: id.nullable(), limit: pageSize });
const DisconnectSchema = z.object({ workspaceId: id, userId: id, connectionId: id });
const OnlineSchema = z.object({ workspaceId: id });
const HeartbeatSchema = z.object({ gatewayId: id, connections: z.array(DisconnectSchema).max(200_000) });
const StatusSchema = z.object({ workspaceId: id, userId: id, status: z.enum(['online', 'away', 'busy']) });
const AudienceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('workspace') }),
  z.object({ kind: z.literal('users'), userIds: z.array(id).max(10_000) }),
]);
const TypingSchema = z.object({
  workspaceId: id,
  channelId: id,
  userId: id,
  username: sealedName,
  typing: z.boolean(),
  audience: AudienceSchema,
});

/** Also callable through the batch route (the calls of one gateway event-loop turn in one request). */
export function internalPresenceRouter(presence: PresenceService, logger?: Logger): express.Router {
  const r = internalRouter(INTERNAL.presenceBatch, logger);
  internalRoute(r, INTERNAL.presenceConnect, (body) => presence.connect(parseOrThrow(ConnectSchema, body)));
  internalRoute(r, INTERNAL.presenceDisconnect, (body) => presence.disconnect(parseOrThrow(DisconnectSchema, body)));
  internalRoute(r, INTERNAL.presenceOnline, (body) => presence.online(parseOrThrow(OnlineSchema, body).workspaceId));
  internalRoute(r, INTERNAL.presenceOnlinePage, (body) => presence.onlinePage(parseOrThrow(OnlinePageSchema, body)));
  internalRoute(r, INTERNAL.presenceHeartbeat, (body) => presence.heartbeat(parseOrThrow(HeartbeatSchema, body)));
  internalRoute(r, INTERNAL.presenceStatus, (body) => presence.setStatus(parseOrThrow(StatusSchema, body)));
  internalRoute(r, INTERNAL.presenceTyping, (body) => presence.typing(parseOrThrow(TypingSchema, body)));
  return r;
}

export class PresenceClient implements PresenceApi {
  private readonly call: ReturnType<typeof serviceClient>;
  constructor(baseUrl: string, credential: ServiceCredential) {
    this.call = serviceClient(baseUrl, credential, undefined, { batchPath: INTERNAL.presenceBatch });
  }
  connect(input: Parameters<PresenceApi['connect']>[0]) {
    return this.call<{ firstConnection: boolean; online: OnlineUser[]; onlineCount: number; next: string | null }>(
      INTERNAL.presenceConnect,
      input,
    );
  }
  disconnect(input: Parameters<PresenceApi['disconnect']>[0]) {
    return this.call<{ lastConnection: boolean }>(INTERNAL.presenceDisconnect, input);
  }
  online(workspaceId: string) {
    return this.call<OnlineUser[]>(INTERNAL.presenceOnline, { workspaceId });
  }
  onlinePage(input: Parameters<PresenceApi['onlinePage']>[0]) {
    return this.call<OnlinePage>(INTERNAL.presenceOnlinePage, input);
  }
  heartbeat(input: Parameters<PresenceApi['heartbeat']>[0]) {
    return this.call<{ missing: string[] }>(INTERNAL.presenceHeartbeat, input);
  }
  async setStatus(input: Parameters<PresenceApi['setStatus']>[0]) {
    await this.call<unknown>(INTERNAL.presenceStatus, input);
  }
  async typing(input: Parameters<PresenceApi['typing']>[0]) {
    await this.call<unknown>(INTERNAL.presenceTyping, input);
  }
}
