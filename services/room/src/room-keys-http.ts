/**
 * Room data keys for the other services in distributed mode (docs/crypto.md). The room service owns the key store;
 * messaging and the gateways ask for a room's key here once and keep it in memory (RoomKeyring) until the room is
 * deleted or expires. INTERNAL NETWORK ONLY, like every /internal route: the ingress never routes /internal, and
 * the NetworkPolicy admits only the gateways, messaging, billing and admin-analytics to the room service's port besides the ingress.
 */
import express from 'express';
import { DomainError } from '@ephemera/proto';
import { RoomKey, ServiceUnavailableError, encodeRoomKey, route, type RoomKeySource, type RoomKeyStore } from '@ephemera/platform';

export const ROOM_KEY_ROUTE = '/internal/room-keys';
const WORKSPACE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** GET /internal/room-keys/:workspaceId -> { key: base64url } (the raw 32-byte key), or 404 once it is destroyed. */
export function internalRoomKeyRouter(keys: RoomKeyStore): express.Router {
  const r = express.Router();
  r.get(`${ROOM_KEY_ROUTE}/:workspaceId`, route(async (req, res) => {
    const id = String(req.params.workspaceId);
    if (!WORKSPACE_ID.test(id)) throw new DomainError('VALIDATION', 'Invalid workspace id');
    const key = await keys.get(id);
    if (!key) throw new DomainError('WORKSPACE_NOT_FOUND');
    res.set('cache-control', 'no-store').json({ key: encodeRoomKey(key) });
  }));
  return r;
}

/** The keyring source of messaging and the gateways: the room service's route. Throws while it is unreachable. */
export function roomKeyClient(roomUrl: string, timeoutMs = 5_000): RoomKeySource {
  return async (workspaceId) => {
    let res: Response;
    try {
      res = await fetch(`${roomUrl}${ROOM_KEY_ROUTE}/${encodeURIComponent(workspaceId)}`, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new ServiceUnavailableError(`room keys: ${(err as Error).message}`);
    }
    if (res.status === 404) { await res.body?.cancel(); return null; }
    if (!res.ok) { await res.body?.cancel(); throw new ServiceUnavailableError(`room keys answered ${res.status}`); }
    const { key } = (await res.json()) as { key: string };
    return new RoomKey(workspaceId, Buffer.from(key, 'base64url'));
  };
}
