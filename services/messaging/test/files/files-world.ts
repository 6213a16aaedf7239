/**
 * The room and messaging modules over one database and embedded log, with files on local disk in a temp folder:
 * what the file tests of this folder start. `room()` makes a room with an owner and a public channel and waits
 * until messaging has them; `upload` posts a real multipart body through FileService.upload.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { IncomingHttpHeaders } from 'node:http';
import type { SessionActor } from '@ephemera/proto';
import { startMessagingModule, LocalDiskStorage } from '@ephemera/messaging';
import { startRoomWorld } from '../../../../test/helpers/room-world.ts';
import type { StorageQuota } from '../../src/files/quota.ts';

export async function startFilesWorld(options: { storageQuota?: StorageQuota } = {}) {
  const world = await startRoomWorld();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-files-'));
  const messaging = await startMessagingModule({
    databaseUrl: world.databaseUrl,
    pool: world.pool,
    log: world.log,
    logger: world.logger,
    keyring: world.keys.keyring,
    storage: new LocalDiskStorage(dir),
    storageQuota: options.storageQuota,
    logSharesDatabase: true,
  });
  world.stopFirst(() => messaging.stop());
  const files = messaging.files!;

  async function room(): Promise<{ actor: SessionActor; channelId: string }> {
    const created = await world.room.service.createWorkspace({
      name: `files-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
      username: 'owner',
    });
    const actor: SessionActor = { workspaceId: created.workspaceId, userId: created.user.id, username: 'owner' };
    const channel = await world.room.service.createChannel(actor, {
      workspaceId: created.workspaceId,
      name: 'general',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    const deadline = Date.now() + 10_000;
    while (!(await world.pool.query('SELECT 1 FROM messaging.channels WHERE id = $1', [channel.id])).rows[0]) {
      if (Date.now() > deadline) throw new Error('messaging never saw the channel');
      await new Promise((r) => setTimeout(r, 50));
    }
    return { actor, channelId: channel.id };
  }

  /** POST /api/workspaces/{id}/files as the browser sends it (fields first, then the file), straight to the service */
  function upload(
    actor: SessionActor,
    fields: Record<string, string>,
    file: { name: string; type: string; bytes: Buffer },
  ) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    const request = new Request('http://files.test/', { method: 'POST', body: form });
    const body = Readable.fromWeb(request.body as import('node:stream/web').ReadableStream) as Readable & {
      headers: IncomingHttpHeaders;
    };
    body.headers = { 'content-type': request.headers.get('content-type')! };
    return files.upload(actor, body);
  }

  /** the object keys storage holds for a room */
  const storedObjects = (workspaceId: string): string[] => {
    const roomDir = path.join(dir, workspaceId);
    return fs.existsSync(roomDir)
      ? fs
          .readdirSync(roomDir)
          .filter((n) => !n.endsWith('.part'))
          .sort()
      : [];
  };

  return {
    ...world,
    messaging,
    files,
    room,
    upload,
    storedObjects,
    /** where the local storage keeps an object */
    storagePath: (key: string) => path.join(dir, key),
    async stop() {
      await world.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
