import { hkdfSync } from 'node:crypto';

/** The key that encrypts backups: derived from the master key (ROOM_MASTER_KEY / DATA_DIR/master.key), for this use only. */
export function backupKeyFrom(masterKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'ephemera admin backup v1', 32));
}
