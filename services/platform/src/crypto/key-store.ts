/**
 * Where room data keys live (docs/crypto.md): one small file per room, the key wrapped by the master key, outside
 * PostgreSQL, Kafka and Redis on purpose. Those keep old bytes (WAL, log segments, dumps, backups) long after a row
 * is deleted; a key file is overwritten and unlinked, so once it is gone no copy of the room's ciphertext anywhere
 * can be opened. Owned by the room service (embedded: DATA_DIR/keys; distributed: ROOM_KEY_DIR on the room
 * service's volume); other services ask the room service for a key (RoomKeyring) and keep it in memory only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { RoomKey } from './room-key.ts';
import type { MasterKeys, WrappedKey } from './master-key.ts';

export interface RoomKeyStore {
  /** a new random key for a new room (refuses to replace an existing one) */
  create(workspaceId: string): Promise<RoomKey>;
  /** null: no such room, or its key was destroyed */
  get(workspaceId: string): Promise<RoomKey | null>;
  /** overwrite and remove the key: from now on nothing of the room can be decrypted */
  destroy(workspaceId: string): Promise<void>;
  /** backups: the key as it is at rest (wrapped by the master key), and a restored one written back still wrapped */
  readWrapped?(id: string): Promise<WrappedKey | null>;
  importWrapped?(id: string, wrapped: WrappedKey): Promise<void>;
  /** whether a wrapped key opens under a configured master key for this id (nothing is written, the key not kept) */
  checkWrapped?(id: string, wrapped: WrappedKey): boolean;
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export class FileRoomKeyStore implements RoomKeyStore {
  constructor(
    private readonly dir: string,
    private readonly masters: MasterKeys,
  ) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  private file(workspaceId: string): string {
    if (!SAFE_ID.test(workspaceId)) throw new Error('invalid workspace id for a key file');
    return path.join(this.dir, `${workspaceId}.key`);
  }

  async create(workspaceId: string): Promise<RoomKey> {
    const key = RoomKey.generate(workspaceId);
    const target = this.file(workspaceId);
    const tmp = `${target}.${randomBytes(4).toString('hex')}.tmp`;
    const fh = await fs.promises.open(tmp, 'wx', 0o600);
    try {
      await fh.writeFile(JSON.stringify(this.masters.wrap(workspaceId, key.exportRaw())));
      await fh.sync();
    } finally {
      await fh.close();
    }
    // link() fails if the target exists: a room's key is never silently replaced
    try {
      await fs.promises.link(tmp, target);
    } finally {
      await fs.promises.unlink(tmp);
    }
    await syncDir(this.dir);
    return key;
  }

  async get(workspaceId: string): Promise<RoomKey | null> {
    let text: string;
    try {
      text = await fs.promises.readFile(this.file(workspaceId), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    return new RoomKey(workspaceId, this.masters.unwrap(workspaceId, JSON.parse(text) as WrappedKey));
  }

  async destroy(workspaceId: string): Promise<void> {
    const file = this.file(workspaceId);
    let fh: fs.promises.FileHandle;
    try {
      fh = await fs.promises.open(file, 'r+');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    try {
      // Overwrite in place before unlinking, so the wrapped key's bytes do not stay in freed blocks
      // (best effort: copy-on-write filesystems and SSD wear levelling may keep old blocks; docs/crypto.md).
      const { size } = await fh.stat();
      await fh.write(randomBytes(size), 0, size, 0);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.promises.unlink(file);
    await syncDir(this.dir);
  }

  /** Backups (docs/crypto.md "Backups"): the key as it is at rest, wrapped by the master key (null: none). */
  async readWrapped(id: string): Promise<WrappedKey | null> {
    try {
      return JSON.parse(await fs.promises.readFile(this.file(id), 'utf8')) as WrappedKey;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  checkWrapped(id: string, wrapped: WrappedKey): boolean {
    try {
      this.masters.unwrap(id, wrapped);
      return SAFE_ID.test(id);
    } catch {
      return false;
    }
  }

  /**
   * A restored key, still wrapped; it must open under a configured master key (else it is refused and nothing is
   * written). A key already present is left as it is.
   */
  async importWrapped(id: string, wrapped: WrappedKey): Promise<void> {
    this.masters.unwrap(id, wrapped); // proves it is this install's key for this room; the bytes are not kept
    const target = this.file(id);
    const tmp = `${target}.${randomBytes(4).toString('hex')}.tmp`;
    const fh = await fs.promises.open(tmp, 'wx', 0o600);
    try {
      await fh.writeFile(JSON.stringify(wrapped));
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await fs.promises.link(tmp, target);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      await fs.promises.unlink(tmp);
    }
    await syncDir(this.dir);
  }

  /** Rotation: re-wrap every key under the current master key (previous master keys must still be configured). */
  async rewrapAll(): Promise<number> {
    let n = 0;
    for (const name of await fs.promises.readdir(this.dir)) {
      if (!name.endsWith('.key')) continue;
      const id = name.slice(0, -4);
      const file = this.file(id);
      const w = JSON.parse(await fs.promises.readFile(file, 'utf8')) as WrappedKey;
      if (w.kid === this.masters.currentId) continue;
      const raw = this.masters.unwrap(id, w);
      const tmp = `${file}.rewrap.tmp`;
      await fs.promises.writeFile(tmp, JSON.stringify(this.masters.wrap(id, raw)), { mode: 0o600 });
      await fs.promises.rename(tmp, file);
      n++;
    }
    await syncDir(this.dir);
    return n;
  }
}

async function syncDir(dir: string): Promise<void> {
  const fh = await fs.promises.open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
