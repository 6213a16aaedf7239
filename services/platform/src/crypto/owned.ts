/**
 * The room service's keys (docs/crypto.md): it owns the key store and reads through a keyring over it. Destroying a
 * key drops it from that keyring at once, so this process stops opening the room's records before the
 * workspace.deleted / workspace.expired event even reaches it. Other processes forget the key when that event does.
 */
import { FileRoomKeyStore, type RoomKeyStore } from './key-store.ts';
import { RoomKeyring } from './keyring.ts';
import { MasterKeys, parseMasterKey } from './master-key.ts';
import type { RoomKey } from './room-key.ts';

export interface OwnedRoomKeys {
  store: RoomKeyStore;
  keyring: RoomKeyring;
}

export function ownedRoomKeys(inner: RoomKeyStore): OwnedRoomKeys {
  const keyring = new RoomKeyring((id) => inner.get(id));
  const store: RoomKeyStore = {
    create: (id) => inner.create(id),
    get: (id) => inner.get(id),
    readWrapped: inner.readWrapped ? (id) => inner.readWrapped!(id) : undefined,
    importWrapped: inner.importWrapped ? (id, w) => inner.importWrapped!(id, w) : undefined,
    checkWrapped: inner.checkWrapped ? (id, w) => inner.checkWrapped!(id, w) : undefined,
    async destroy(id) {
      keyring.forget(id); // first: nothing in this process opens the room's records from now on
      await inner.destroy(id);
    },
  };
  return { store, keyring };
}

/** The key store in a directory, under the current master key and the previous ones (rotation). */
export function fileRoomKeys(
  dir: string,
  master: Buffer,
  previous: Buffer[] = [],
): OwnedRoomKeys & { files: FileRoomKeyStore } {
  const files = new FileRoomKeyStore(dir, new MasterKeys(master, previous));
  return { ...ownedRoomKeys(files), files };
}

/** ROOM_MASTER_KEYS_PREVIOUS: comma-separated master keys (hex or base64) that wrapped keys before a rotation. */
export function parsePreviousMasterKeys(value: string | undefined): Buffer[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseMasterKey);
}

/** The key bytes as the room service's internal route answers them (base64url), and back. */
export const encodeRoomKey = (key: RoomKey): string => key.exportRaw().toString('base64url');
