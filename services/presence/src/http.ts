/** Internal routes of the presence service (distributed mode) and the matching client. */
import express from 'express';
import { INTERNAL, type OnlineUser, type PresenceApi } from '@ephemera/proto';
import { route, serviceClient } from '@ephemera/platform';
import type { PresenceService } from './presence-service.ts';

export function internalPresenceRouter(presence: PresenceService): express.Router {
  const r = express.Router();
  r.post(INTERNAL.presenceConnect, route(async (req, res) => { res.json(await presence.connect(req.body)); }));
  r.post(INTERNAL.presenceDisconnect, route(async (req, res) => { res.json(await presence.disconnect(req.body)); }));
  r.post(INTERNAL.presenceOnline, route(async (req, res) => { res.json(await presence.online(String(req.body.workspaceId))); }));
  r.post(INTERNAL.presenceHeartbeat, route(async (req, res) => { await presence.heartbeat(req.body); res.json({}); }));
  return r;
}

export class PresenceClient implements PresenceApi {
  private readonly call: ReturnType<typeof serviceClient>;
  constructor(baseUrl: string) { this.call = serviceClient(baseUrl); }
  connect(input: Parameters<PresenceApi['connect']>[0]) { return this.call<{ firstConnection: boolean; online: OnlineUser[] }>(INTERNAL.presenceConnect, input); }
  disconnect(input: Parameters<PresenceApi['disconnect']>[0]) { return this.call<{ lastConnection: boolean }>(INTERNAL.presenceDisconnect, input); }
  online(workspaceId: string) { return this.call<OnlineUser[]>(INTERNAL.presenceOnline, { workspaceId }); }
  async heartbeat(input: Parameters<PresenceApi['heartbeat']>[0]) { await this.call<{}>(INTERNAL.presenceHeartbeat, input); }
}
