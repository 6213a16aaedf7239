/** Internal routes of the presence service (distributed mode) and the matching client. */
import express from 'express';
import { INTERNAL, type OnlineUser, type PresenceApi } from '@ephemera/proto';
import { z } from 'zod';
import { parseOrThrow, route, serviceClient } from '@ephemera/platform';
import type { PresenceService } from './presence-service.ts';

const id = z.string().min(1).max(64);
/** Names arrive sealed by the gateway (sealed-presence.ts): `e1.` + base64url(nonce, name, tag), ~200 characters at most. */
const sealedName = z.string().max(512);
const OnlineUserSchema = z.object({ id, username: sealedName, isAdmin: z.boolean(), presenceStatus: z.enum(['online', 'away', 'busy']) });
const ConnectSchema = z.object({ workspaceId: id, user: OnlineUserSchema, connectionId: id, gatewayId: id });
const DisconnectSchema = z.object({ workspaceId: id, userId: id, connectionId: id });
const OnlineSchema = z.object({ workspaceId: id });
const HeartbeatSchema = z.object({ gatewayId: id, connections: z.array(DisconnectSchema).max(200_000) });
const StatusSchema = z.object({ workspaceId: id, userId: id, status: z.enum(['online', 'away', 'busy']) });
const AudienceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('workspace') }), z.object({ kind: z.literal('users'), userIds: z.array(id).max(10_000) }),
]);
const TypingSchema = z.object({ workspaceId: id, channelId: id, userId: id, username: sealedName, typing: z.boolean(), audience: AudienceSchema });

export function internalPresenceRouter(presence: PresenceService): express.Router {
  const r = express.Router();
  r.post(INTERNAL.presenceConnect, route(async (req, res) => { res.json(await presence.connect(parseOrThrow(ConnectSchema, req.body))); }));
  r.post(INTERNAL.presenceDisconnect, route(async (req, res) => { res.json(await presence.disconnect(parseOrThrow(DisconnectSchema, req.body))); }));
  r.post(INTERNAL.presenceOnline, route(async (req, res) => { res.json(await presence.online(parseOrThrow(OnlineSchema, req.body).workspaceId)); }));
  r.post(INTERNAL.presenceHeartbeat, route(async (req, res) => { res.json(await presence.heartbeat(parseOrThrow(HeartbeatSchema, req.body))); }));
  r.post(INTERNAL.presenceStatus, route(async (req, res) => { await presence.setStatus(parseOrThrow(StatusSchema, req.body)); res.json({}); }));
  r.post(INTERNAL.presenceTyping, route(async (req, res) => { await presence.typing(parseOrThrow(TypingSchema, req.body)); res.json({}); }));
  return r;
}

export class PresenceClient implements PresenceApi {
  private readonly call: ReturnType<typeof serviceClient>;
  constructor(baseUrl: string) { this.call = serviceClient(baseUrl); }
  connect(input: Parameters<PresenceApi['connect']>[0]) { return this.call<{ firstConnection: boolean; online: OnlineUser[] }>(INTERNAL.presenceConnect, input); }
  disconnect(input: Parameters<PresenceApi['disconnect']>[0]) { return this.call<{ lastConnection: boolean }>(INTERNAL.presenceDisconnect, input); }
  online(workspaceId: string) { return this.call<OnlineUser[]>(INTERNAL.presenceOnline, { workspaceId }); }
  heartbeat(input: Parameters<PresenceApi['heartbeat']>[0]) { return this.call<{ missing: string[] }>(INTERNAL.presenceHeartbeat, input); }
  async setStatus(input: Parameters<PresenceApi['setStatus']>[0]) { await this.call<{}>(INTERNAL.presenceStatus, input); }
  async typing(input: Parameters<PresenceApi['typing']>[0]) { await this.call<{}>(INTERNAL.presenceTyping, input); }
}
