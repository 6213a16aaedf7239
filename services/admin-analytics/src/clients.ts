/**
 * What admin-analytics asks the other services in distributed mode (embedded mode passes their objects instead):
 * the four ports of proto/src/admin-ports.ts over internal-rpc routes, and the data keys that open the events it
 * reads. These routes are on each owner's internal listener, every call signed with the service credential; the
 * NetworkPolicy admits admin-analytics to those ports.
 */
import {
  ADMIN_ACCOUNTS_METHODS,
  ADMIN_ACCOUNTS_PREFIX,
  ADMIN_AGGREGATE,
  ADMIN_BILLING_SYSTEM_METHODS,
  ADMIN_BILLING_SYSTEM_PREFIX,
  ADMIN_MESSAGING_METHODS,
  ADMIN_MESSAGING_PREFIX,
  ADMIN_ROOMS_METHODS,
  ADMIN_ROOMS_PREFIX,
  type AdminAccountsApi,
  type AdminBillingSystemApi,
  type AdminMessagingApi,
  type AdminRoomsApi,
  type BackupPartApi,
  type BackupPartName,
} from '@ephemera/proto';
import {
  backupPartClient,
  internalRpcClient,
  type RoomKeySource,
  type RoomKeyStore,
  type ServiceCredential,
} from '@ephemera/platform';
import { roomKeyClient } from '@ephemera/room/src/room-keys-http.ts';
import { accountKeyClient } from '@ephemera/billing/src/account-keys-http.ts';

export interface AdminPorts {
  accounts: AdminAccountsApi;
  billingSystem: AdminBillingSystemApi;
  rooms: AdminRoomsApi;
  messaging: AdminMessagingApi;
  backupParts: Record<BackupPartName, BackupPartApi>;
}

/** The ports as HTTP clients of billing, room and messaging (each owner mounts internalRpcRouter with the same lists). */
export function adminPortClients(
  urls: { billingUrl: string; roomUrl: string; messagingUrl: string },
  credential: ServiceCredential,
  timeoutMs?: number,
): AdminPorts {
  return {
    accounts: internalRpcClient<AdminAccountsApi>(
      urls.billingUrl,
      credential,
      ADMIN_ACCOUNTS_PREFIX,
      ADMIN_ACCOUNTS_METHODS,
      timeoutMs,
    ),
    billingSystem: internalRpcClient<AdminBillingSystemApi>(
      urls.billingUrl,
      credential,
      ADMIN_BILLING_SYSTEM_PREFIX,
      ADMIN_BILLING_SYSTEM_METHODS,
      timeoutMs,
    ),
    rooms: internalRpcClient<AdminRoomsApi>(
      urls.roomUrl,
      credential,
      ADMIN_ROOMS_PREFIX,
      ADMIN_ROOMS_METHODS,
      timeoutMs,
    ),
    messaging: internalRpcClient<AdminMessagingApi>(
      urls.messagingUrl,
      credential,
      ADMIN_MESSAGING_PREFIX,
      ADMIN_MESSAGING_METHODS,
      timeoutMs,
    ),
    backupParts: {
      room: backupPartClient(urls.roomUrl, credential, 'room'),
      messaging: backupPartClient(urls.messagingUrl, credential, 'messaging'),
      billing: backupPartClient(urls.billingUrl, credential, 'billing'),
    },
  };
}

/**
 * The keyring source of admin-analytics' sealed event log. It reads every topic, and each topic's payloads are sealed
 * under keys another owner keeps (docs/crypto.md):
 *   - admin events (partition key ADMIN_AGGREGATE): this service's own key store (ADMIN_KEY_DIR);
 *   - room and messaging events: the room's key, from the room service (/internal/room-keys);
 *   - billing events: the account's key, and contact messages their own key, from billing (/internal/account-keys).
 * A record names only its partition key, not whose key it is, so a non-admin key is asked of room, then of billing.
 * A null from one owner therefore means "not mine, ask the next" (ids are random, never shared between owners);
 * only a null from every owner is final: the room, account or message was deleted and its key destroyed, so its
 * records are skipped for good (the keyring remembers it as gone). An owner that does not answer throws, and the
 * record is delivered again later: an outage never passes for a deletion.
 */
export function adminKeySource(
  own: RoomKeyStore,
  owners: { roomUrl: string; billingUrl: string },
  credential: ServiceCredential,
  timeoutMs?: number,
): RoomKeySource {
  const room = roomKeyClient(owners.roomUrl, credential, timeoutMs);
  const billing = accountKeyClient(owners.billingUrl, credential, timeoutMs);
  return async (id) => {
    if (id === ADMIN_AGGREGATE) return own.get(id);
    return (await room(id)) ?? (await billing(id));
  };
}
