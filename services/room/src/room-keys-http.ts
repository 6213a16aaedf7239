/**
 * Room data keys for the other services in distributed mode (docs/crypto.md). The room service owns the key store;
 * messaging and the gateways ask for a room's key here once and keep it in memory (RoomKeyring) until the room is
 * deleted or expires. Served on the room service's internal listener only, like every /internal route: callers sign
 * each request with the service credential, and the NetworkPolicy admits only the gateways, messaging, billing and
 * admin-analytics to that port (docs/security.md).
 */
import express from 'express';
import { DomainError } from '@ephemera/proto';
import {
  RoomKey,
  ServiceUnavailableError,
  encodeRoomKey,
  route,
  signedRequests,
  type RoomKeySource,
  type RoomKeyStore,
  type ServiceCredential,
} from '@ephemera/platform';

export const ROOM_KEY_ROUTE = '/internal/room-keys';
const WORKSPACE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** GET /internal/room-keys/:workspaceId -> { key: base64url } (the raw 32-byte key), or 404 once it is destroyed. */
export function internalRoomKeyRouter(keys: RoomKeyStore): express.Router {
  const r = express.Router();
  r.get(
    `${ROOM_KEY_ROUTE}/:workspaceId`,
    route(async (req, res) => {
      const id = String(req.params.workspaceId);
      if (!WORKSPACE_ID.test(id)) throw new DomainError('VALIDATION', 'Invalid workspace id');
      const key = await keys.get(id);
      if (!key) throw new DomainError('WORKSPACE_NOT_FOUND');
      res.set('cache-control', 'no-store').json({ key: encodeRoomKey(key) });
    }),
  );
  return r;
}

/** The keyring source of messaging and the gateways: the room service's route. Throws while it is unreachable. */
export function roomKeyClient(roomUrl: string, credential: ServiceCredential, timeoutMs = 5_000): RoomKeySource {
  const request = signedRequests(roomUrl, credential, timeoutMs);
  return async (workspaceId) => {
    const { status, json } = await request('GET', `${ROOM_KEY_ROUTE}/${encodeURIComponent(workspaceId)}`);
    if (status === 404) return null;
    if (status !== 200) throw new ServiceUnavailableError(`room keys answered ${status}`);
    return new RoomKey(workspaceId, Buffer.from((json as { key: string }).key, 'base64url'));
  };
}
