/**
 * Room data keys for tests that start the room and messaging modules in one process: a key directory of its own
 * under the system temp dir, a random master key, and the room service's keyring over it (docs/crypto.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileRoomKeys } from '@ephemera/platform';

export function testRoomKeys(): ReturnType<typeof fileRoomKeys> & { dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-room-keys-'));
  return { ...fileRoomKeys(dir, randomBytes(32)), dir };
}
