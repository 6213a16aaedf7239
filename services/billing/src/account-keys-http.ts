/**
 * Billing's data keys for admin-analytics in distributed mode (docs/crypto.md): billing seals each account's events
 * under the account's key and each contact message under the message's own key, all in billing's key store.
 * Admin-analytics reads every topic into its read models, so it asks here for those keys, once each, and keeps them
 * in memory (RoomKeyring) until the account or message is deleted (account.deleted / contact.message-deleted).
 * Served on billing's internal listener only, like the room service's /internal/room-keys: callers sign each request
 * with the service credential, and the NetworkPolicy admits only room and admin-analytics to that port.
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

export const ACCOUNT_KEY_ROUTE = '/internal/account-keys';
/** an account id or a contact message id (newId: base62), as the key store names its files */
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** GET /internal/account-keys/:id -> { key: base64url } (the raw 32-byte key), or 404 once it is destroyed. */
export function internalAccountKeyRouter(keys: RoomKeyStore): express.Router {
  const r = express.Router();
  r.get(
    `${ACCOUNT_KEY_ROUTE}/:id`,
    route(async (req, res) => {
      const id = String(req.params.id);
      if (!KEY_ID.test(id)) throw new DomainError('VALIDATION', 'Invalid key id');
      const key = await keys.get(id);
      if (!key) throw new DomainError('ACCOUNT_NOT_FOUND', 'No such key'); // 404: deleted, or never billing's
      res.set('cache-control', 'no-store').json({ key: encodeRoomKey(key) });
    }),
  );
  return r;
}

/** A keyring source over billing's route: null when billing has no such key; throws while billing is unreachable. */
export function accountKeyClient(billingUrl: string, credential: ServiceCredential, timeoutMs = 5_000): RoomKeySource {
  const request = signedRequests(billingUrl, credential, timeoutMs);
  return async (id) => {
    const { status, json } = await request('GET', `${ACCOUNT_KEY_ROUTE}/${encodeURIComponent(id)}`);
    if (status === 404) return null;
    if (status !== 200) throw new ServiceUnavailableError(`account keys answered ${status}`);
    return new RoomKey(id, Buffer.from((json as { key: string }).key, 'base64url'));
  };
}
