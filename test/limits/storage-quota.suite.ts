/**
 * A room's file storage quota holds under a burst (services/messaging/src/files/quota.ts): uploads sent at once, to
 * one messaging process or spread over several, each reserve their bytes before storing any, so together they never
 * pass the quota. The quota is made small (3.5 MB) and a burst of 1 MB files is sent at once: what is stored stays
 * within it, each refused upload answers 413 STORAGE_QUOTA_EXCEEDED and leaves nothing in storage, and once the burst
 * is over its reservations are released: exactly what is left can still be uploaded.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { API, C, ERRORS } from '@ephemera/proto';
import { clientId, createRoom, request, socketJoin, uniqueName } from '../helpers/clients.ts';

const MB = 1024 * 1024;
export const BURST_QUOTA = 3.5 * MB;
const BURST = 10;

export interface QuotaTarget {
  /** the origin rooms are made on (a gateway) */
  url: string;
  /** where uploads are sent: the burst is spread over them (several messaging processes when distributed) */
  uploadBases: string[];
  /** the object keys file storage holds for a room (local disk or the S3 bucket) */
  storedObjects(workspaceId: string): Promise<string[]>;
  stop(): Promise<void>;
}

const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(size - 9)]);

/** POST /api/workspaces/{id}/files as a browser sends it: fields first, then the file, with its Content-Length. */
async function upload(base: string, workspaceId: string, token: string, channelId: string, bytes: Buffer) {
  const form = new FormData();
  form.append('channelId', channelId);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'part.pdf');
  const encoded = new Request('http://upload.test/', { method: 'POST', body: form });
  const res = await fetch(base + API.uploadFile(workspaceId), {
    method: 'POST',
    body: await encoded.arrayBuffer(),
    headers: { authorization: `Bearer ${token}`, 'content-type': encoded.headers.get('content-type')! },
  });
  return { status: res.status, body: (await res.json()) as { file?: { id: string; size: number }; code?: string } };
}

export function storageQuotaSuite(name: string, start: () => Promise<QuotaTarget>) {
  describe(`storage quota under a burst: ${name}`, () => {
    let t: QuotaTarget;
    beforeAll(async () => {
      t = await start();
    });
    afterAll(async () => {
      await t?.stop();
    });

    it('uploads finishing together never pass the quota; each refused one is 413 and stores nothing', async () => {
      const room = await createRoom(t.url, uniqueName('quota'), 'alice');
      const { socket } = await socketJoin(t.url, room.workspaceId, 'alice', room.userToken);
      try {
        const created = await request(socket, C.createChannel, {
          workspaceId: room.workspaceId,
          name: 'files',
          type: 'topic',
          isPrivate: false,
        });
        if (!created.success) throw new Error(`create-channel failed: ${created.message}`);
        const channelId = created.channel.id;
        // messaging knows the channel once a message in it is taken (uploads check it there)
        const deadline = Date.now() + 20_000;
        for (;;) {
          const sent = await request(socket, C.sendMessage, { clientMessageId: clientId(), channelId, content: 'hi' });
          if (sent.success) break;
          if (Date.now() > deadline) throw new Error(`send-message failed: ${sent.message}`);
          await new Promise((r) => setTimeout(r, 100));
        }

        const results = await Promise.all(
          Array.from({ length: BURST }, (_, i) =>
            upload(t.uploadBases[i % t.uploadBases.length]!, room.workspaceId, room.userToken, channelId, pdf(MB)),
          ),
        );
        const stored = results.filter((r) => r.status === 201).map((r) => r.body.file!);
        const refused = results.filter((r) => r.status !== 201);
        for (const r of refused) {
          expect(r.status, JSON.stringify(r.body)).toBe(413);
          expect(r.body).toMatchObject({ code: 'STORAGE_QUOTA_EXCEEDED', message: ERRORS.STORAGE_QUOTA_EXCEEDED });
        }
        const storedBytes = stored.reduce((sum, f) => sum + f.size, 0);
        expect(storedBytes).toBeLessThanOrEqual(BURST_QUOTA);
        expect(stored.length).toBeGreaterThan(0);
        // storage holds the accepted files and nothing of the refused ones
        const objects = await t.storedObjects(room.workspaceId);
        expect(objects.map((k) => k.split('/').pop()).sort()).toEqual(stored.map((f) => f.id).sort());

        // The burst's reservations are released: what is left of the quota can be uploaded, and not a byte more.
        const left = BURST_QUOTA - storedBytes;
        const over = await upload(t.uploadBases[0]!, room.workspaceId, room.userToken, channelId, pdf(left + 1));
        expect(over.status).toBe(413);
        const last = await upload(t.uploadBases[0]!, room.workspaceId, room.userToken, channelId, pdf(left));
        expect(last.status, JSON.stringify(last.body)).toBe(201);
      } finally {
        socket.disconnect();
      }
    });
  });
}
