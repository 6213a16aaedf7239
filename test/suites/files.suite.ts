/**
 * Files and voice messages (docs/product/files.md) through the real server: every allowed type accepted and described
 * from its
 * bytes, a renamed executable refused, the tier's size limit enforced while streaming with nothing kept (and lifted
 * by a tier change), downloads only for members who may read the channel (bearer or signed link), safe headers,
 * Range, a file message seen by another member, forged file messages refused, retention and room deletion removing
 * the stored objects (local disk or the S3 bucket, through Target.storedObjects).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Socket } from 'socket.io-client';
import { API, C, S, ERRORS, HTTP_AUTHZ, type Message, type Role } from '@ephemera/proto';
import { createRoom, joinRoom, socketJoin, request, next, clientId } from '../helpers/clients.ts';
import { allowedSamples, renamedExecutable, voiceNote, type Sample } from './files.fixtures.ts';
import type { TargetRef } from './target-ref.ts';

const MB = 1024 * 1024;

export async function upload(
  base: string,
  workspaceId: string,
  token: string | null,
  fields: Record<string, string>,
  file: { name: string; type: string; bytes: Buffer | Blob },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v); // fields before the file (docs/protocol.md)
  form.append(
    'file',
    file.bytes instanceof Blob ? file.bytes : new Blob([new Uint8Array(file.bytes)], { type: file.type }),
    file.name,
  );
  const res = await fetch(base + API.uploadFile(workspaceId), {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

async function download(base: string, path: string, token: string | null, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A blob of `size` bytes that is a valid PDF from its first bytes (the size limit is what is tested). */
const bigPdf = (size: number) =>
  new Blob([Buffer.from('%PDF-1.4\n'), new Uint8Array(size - 9)], { type: 'application/pdf' });

const until = async (check: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
};

export function filesSuite(target: TargetRef) {
  describe('files and voice messages', () => {
    let room: Awaited<ReturnType<typeof createRoom>>;
    let bob: Awaited<ReturnType<typeof joinRoom>>;
    let owner: Socket;
    let member: Socket;
    let general: string;
    let secret: string;
    const sockets: Socket[] = [];

    beforeAll(async () => {
      const { A, B } = target();
      room = await createRoom(A);
      bob = await joinRoom(B, room.workspaceId, 'bob');
      owner = (await socketJoin(A, room.workspaceId, room.user.username, room.userToken)).socket;
      member = (await socketJoin(B, room.workspaceId, 'bob', bob.userToken)).socket;
      sockets.push(owner, member);
      const g = await request(owner, C.createChannel, {
        workspaceId: room.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      const s = await request(owner, C.createChannel, {
        workspaceId: room.workspaceId,
        name: 'secret',
        type: 'topic',
        isPrivate: true,
      });
      if (!g.success || !s.success) throw new Error('setup failed');
      general = g.channel.id;
      secret = s.channel.id;
    });
    afterAll(() => {
      for (const s of sockets) s.disconnect();
    });

    it('accepts each allowed type, described from its bytes, with a thumbnail for images', async () => {
      for (const sample of await allowedSamples()) {
        const res = await upload(target().A, room.workspaceId, room.userToken, { channelId: general }, sample);
        expect(res.status, `${sample.name}: ${JSON.stringify(res.body)}`).toBe(201);
        expect(res.body.file).toMatchObject({
          kind: sample.kind,
          mime: sample.mime,
          name: sample.name,
          size: sample.bytes.length,
        });
        expect(res.body.file.thumbnailUrl === null, sample.name).toBe(sample.kind !== 'image');
      }
    });

    it('what storage keeps is ciphertext: a canary in a file and its name are nowhere in the stored object', async () => {
      const canary = `canary-${Date.now().toString(36)}-file-content`;
      const text = Buffer.from(`${canary}\n`.repeat(5000));
      const up = await upload(
        target().A,
        room.workspaceId,
        room.userToken,
        { channelId: general, caption: canary },
        { name: `${canary}.txt`, type: 'text/plain', bytes: text },
      );
      expect(up.status).toBe(201);
      const stored = await target().readStoredObject!(`${room.workspaceId}/${up.body.file.id}`);
      expect(stored.length).toBe(text.length + Math.ceil(text.length / 65536) * 16); // chunks of 64 KiB, a 16-byte tag each
      expect(stored.includes(Buffer.from('canary-'))).toBe(false);
      expect((await download(target().A, up.body.file.url, room.userToken)).bytes.equals(text)).toBe(true);
    });

    it('an image and its thumbnail are sealed under different keys and nonces (their keystreams differ)', async () => {
      const sample = (await allowedSamples()).find((s) => s.name === 'photo.png')!;
      const up = await upload(target().A, room.workspaceId, room.userToken, { channelId: general }, sample);
      expect(up.status).toBe(201);
      const thumb = await download(target().A, up.body.file.thumbnailUrl, room.userToken);
      expect(thumb.status).toBe(200);
      const storedFile = await target().readStoredObject!(`${room.workspaceId}/${up.body.file.id}`);
      const storedThumb = await target().readStoredObject!(`${room.workspaceId}/${up.body.file.id}.thumb`);
      // AES-GCM is a stream cipher: ciphertext XOR plaintext is the keystream of the (key, nonce). One pair for
      // both objects would give the same keystream, and XOR of the two ciphertexts would give XOR of the images.
      const n = Math.min(64, thumb.bytes.length, sample.bytes.length);
      const keystream = (stored: Buffer, plain: Buffer) =>
        Buffer.from(Array.from({ length: n }, (_, i) => stored[i]! ^ plain[i]!));
      expect(keystream(storedFile, sample.bytes).equals(keystream(storedThumb, thumb.bytes))).toBe(false);
    });

    it('refuses an executable named .png and text with a NUL: File type not supported, nothing kept', async () => {
      const before = await target().storedObjects!(room.workspaceId);
      const exe = await upload(
        target().A,
        room.workspaceId,
        room.userToken,
        { channelId: general },
        renamedExecutable(),
      );
      expect(exe.status).toBe(415);
      expect(exe.body.message).toBe(ERRORS.FILE_TYPE_NOT_SUPPORTED);
      const nul = await upload(
        target().A,
        room.workspaceId,
        room.userToken,
        { channelId: general },
        { name: 'x.txt', type: 'text/plain', bytes: Buffer.concat([Buffer.alloc(300_000, 0x61), Buffer.from([0])]) },
      );
      expect(nul.status).toBe(415);
      expect(await target().storedObjects!(room.workspaceId)).toEqual(before);
    });

    it('a free room refuses 10 MB + 1 byte while streaming (413, nothing kept); pro then takes it', async () => {
      const fresh = await createRoom(target().A);
      const ch = await socketJoin(target().A, fresh.workspaceId, fresh.user.username, fresh.userToken);
      sockets.push(ch.socket);
      const c = await request(ch.socket, C.createChannel, {
        workspaceId: fresh.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      if (!c.success) throw new Error('setup');
      const over = await upload(
        target().A,
        fresh.workspaceId,
        fresh.userToken,
        { channelId: c.channel.id },
        { name: 'big.pdf', type: 'application/pdf', bytes: bigPdf(10 * MB + 1) },
      );
      expect(over.status).toBe(413);
      expect(over.body.code).toBe('FILE_TOO_LARGE');
      expect(over.body.message).toMatch(/File Size Limit Exceeded.*10 MB/);
      expect(await target().storedObjects!(fresh.workspaceId)).toEqual([]);
      const exact = await upload(
        target().A,
        fresh.workspaceId,
        fresh.userToken,
        { channelId: c.channel.id },
        { name: 'ok.pdf', type: 'application/pdf', bytes: bigPdf(10 * MB) },
      );
      expect(exact.status).toBe(201);
      await target().changeTier!(fresh.workspaceId, 'pro');
      await until(
        async () =>
          (
            await upload(
              target().A,
              fresh.workspaceId,
              fresh.userToken,
              { channelId: c.channel.id },
              { name: 'pro.pdf', type: 'application/pdf', bytes: bigPdf(10 * MB + 1) },
            )
          ).status === 201,
      );
      expect((await target().storedObjects!(fresh.workspaceId)).length).toBe(2);
    });

    it('a file message: the server takes type and text from the upload; another member downloads it; Range; safe headers', async () => {
      const sample = (await allowedSamples()).find((s) => s.name === 'photo.png')!;
      const up = await upload(
        target().A,
        room.workspaceId,
        room.userToken,
        { channelId: general, caption: 'our team photo' },
        sample,
      );
      expect(up.status).toBe(201);
      const seen = next<Message>(member, S.message, (m) => m.file?.id === up.body.file.id);
      const sent = await request(owner, C.sendMessage, {
        clientMessageId: clientId(),
        channelId: general,
        content: 'ignored',
        type: 'file',
        fileId: up.body.file.id,
      });
      if (!sent.success) throw new Error(sent.message);
      expect(sent.message).toMatchObject({
        type: 'image',
        content: 'our team photo',
        file: { id: up.body.file.id, mime: 'image/png', size: sample.bytes.length },
      });
      const got = await seen;
      const file = await download(target().B, got.file!.url, bob.userToken);
      expect(file.status).toBe(200);
      expect(file.bytes.equals(sample.bytes)).toBe(true);
      expect(file.headers.get('content-type')).toBe('image/png');
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(file.headers.get('content-disposition')).toMatch(/^inline; filename="photo.png"/);
      const part = await download(target().B, got.file!.url, bob.userToken, { range: 'bytes=100-70099' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-70099/${sample.bytes.length}`);
      expect(part.bytes.equals(sample.bytes.subarray(100, 70100))).toBe(true);
      const thumb = await download(target().B, got.file!.thumbnailUrl!, bob.userToken);
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('content-type')).toBe('image/webp');

      // a pdf is never shown inline from our origin
      const pdf = (await allowedSamples()).find((s) => s.name === 'paper.pdf')!;
      const upPdf = await upload(target().A, room.workspaceId, room.userToken, { channelId: general }, pdf);
      const pdfFile = await download(target().A, upPdf.body.file.url, room.userToken);
      expect(pdfFile.headers.get('content-disposition')).toMatch(/^attachment;/);
      expect(pdfFile.headers.get('content-security-policy')).toContain('sandbox');
    });

    it('a signed link works without a header, for its member only while it lasts; tampering is refused', async () => {
      const sample = (await allowedSamples()).find((s) => s.name === 'photo.jpg')!;
      const up = await upload(target().A, room.workspaceId, room.userToken, { channelId: general }, sample);
      const link = await fetch(target().B + API.fileLink(room.workspaceId, up.body.file.id), {
        headers: { authorization: `Bearer ${bob.userToken}` },
      }).then((r) => r.json());
      expect(link.success).toBe(true);
      const ok = await download(target().B, link.url, null);
      expect(ok.status).toBe(200);
      expect(ok.bytes.equals(sample.bytes)).toBe(true);
      expect((await download(target().B, link.thumbnailUrl, null)).status).toBe(200);
      expect((await download(target().B, link.url.replace(/sig=.{4}/, 'sig=AAAA'), null)).status).toBe(401);
      expect(
        (await download(target().B, link.url.replace(/exp=\d+/, `exp=${Date.now() + 10 ** 9}`), null)).status,
      ).toBe(401);
      expect((await download(target().B, up.body.file.url, null)).status).toBe(401);
    });

    it('only members who may read the channel download: another room, no token, a member outside a private channel', async () => {
      const sample = (await allowedSamples()).find((s) => s.name === 'notes.txt')!;
      const up = await upload(target().A, room.workspaceId, room.userToken, { channelId: secret }, sample);
      expect(up.status).toBe(201);
      const other = await createRoom(target().B);
      expect((await download(target().B, up.body.file.url, other.userToken)).status).toBe(401);
      expect((await download(target().B, up.body.file.url, null)).status).toBe(401);
      const outside = await download(target().B, up.body.file.url, bob.userToken);
      expect(outside.status).toBe(403);
      expect((await download(target().A, up.body.file.url, room.userToken)).bytes.equals(sample.bytes)).toBe(true);
      // uploading into a private channel one is not in, or into another room, is refused too
      expect((await upload(target().B, room.workspaceId, bob.userToken, { channelId: secret }, sample)).status).toBe(
        403,
      );
      expect((await upload(target().B, room.workspaceId, other.userToken, { channelId: general }, sample)).status).toBe(
        401,
      );
      expect((await upload(target().B, room.workspaceId, null, { channelId: general }, sample)).status).toBe(401);
    });

    it('authorization table (P9): every role the file routes refuse is refused on each of them', async () => {
      const sample = (await allowedSamples()).find((s) => s.name === 'notes.txt')!;
      const up = await upload(target().A, room.workspaceId, room.userToken, { channelId: general }, sample);
      const carol = await joinRoom(target().A, room.workspaceId, 'carol');
      const carolSocket = (await socketJoin(target().A, room.workspaceId, 'carol', carol.userToken)).socket;
      const erin = await joinRoom(target().A, room.workspaceId, 'erin');
      sockets.push(carolSocket);
      expect((await request(carolSocket, C.leaveWorkspace, { workspaceId: room.workspaceId })).success).toBe(true);
      expect((await request(owner, C.kickUser, { workspaceId: room.workspaceId, userId: erin.user.id })).success).toBe(
        true,
      );
      const other = await createRoom(target().B);
      const cases: [Role, string | null, number][] = [
        ['anonymous', null, 401],
        ['non-member', other.userToken, 401],
        ['left', carol.userToken, 401],
        ['kicked', erin.userToken, 401],
      ];
      for (const [role, token, status] of cases) {
        for (const id of ['uploadFile', 'fileLink', 'downloadFile'] as const)
          expect(HTTP_AUTHZ[id].allow).not.toContain(role);
        await until(async () => (await download(target().B, up.body.file.url, token)).status === status, 5000);
        expect(
          (await upload(target().B, room.workspaceId, token, { channelId: general }, sample)).status,
          `${role} upload`,
        ).toBe(status);
        expect(
          (await download(target().B, API.fileLink(room.workspaceId, up.body.file.id), token)).status,
          `${role} link`,
        ).toBe(status);
        expect((await download(target().B, up.body.file.url, token)).status, `${role} download`).toBe(status);
      }
      for (const token of [room.userToken, bob.userToken]) {
        expect((await download(target().B, up.body.file.url, token)).status).toBe(200);
        expect((await download(target().B, API.fileLink(room.workspaceId, up.body.file.id), token)).status).toBe(200);
      }
    });

    it('bad input gets a clear 4xx, never a 500: not multipart, no file, broken parts, unknown fields, bad ranges', async () => {
      const url = target().A + API.uploadFile(room.workspaceId);
      const auth = { authorization: `Bearer ${room.userToken}` };
      const raw = async (body: string, contentType?: string) => {
        const res = await fetch(url, {
          method: 'POST',
          body,
          headers: { ...auth, ...(contentType ? { 'content-type': contentType } : {}) },
        });
        return { status: res.status, body: await res.json().catch(() => null) };
      };
      const cases = [
        await raw('{"file":"x"}', 'application/json'),
        await raw('hello'),
        await raw(
          '--b\r\nContent-Disposition: form-data; name="channelId"\r\n\r\nabc',
          'multipart/form-data; boundary=b',
        ),
        await raw('garbage without boundary', 'multipart/form-data'),
        await raw(
          `--b\r\nContent-Disposition: form-data; name="channelId"\r\n\r\n${general}\r\n--b--\r\n`,
          'multipart/form-data; boundary=b',
        ),
      ];
      for (const c of cases) {
        expect(c.status, JSON.stringify(c.body)).toBeGreaterThanOrEqual(400);
        expect(c.status).toBeLessThan(500);
        expect(typeof c.body?.message).toBe('string');
      }
      const sample = (await allowedSamples()).find((s) => s.name === 'notes.txt')!;
      for (const fields of [
        { channelId: general, purpose: 'exe' },
        { channelId: general, caption: 'x'.repeat(201) },
        { channelId: '../../etc' },
        {},
      ]) {
        const res = await upload(
          target().A,
          room.workspaceId,
          room.userToken,
          fields as Record<string, string>,
          sample,
        );
        expect(res.status, JSON.stringify(res.body)).toBe(400);
      }
      const up = await upload(target().A, room.workspaceId, room.userToken, { channelId: general }, sample);
      for (const range of ['bytes=999999-', 'bytes=5-2', 'bytes=abc', 'items=0-1']) {
        const res = await download(target().A, up.body.file.url, room.userToken, { range });
        expect(res.status, range).toBeLessThan(500);
      }
      expect((await download(target().A, `${API.file(room.workspaceId, 'no-such-file')}`, room.userToken)).status).toBe(
        404,
      );
    });

    it("forged file messages are refused: no upload, another member's upload, an upload sent twice", async () => {
      const bare = await request(owner, C.sendMessage, {
        clientMessageId: clientId(),
        channelId: general,
        content: 'https://evil.example/x.png',
        type: 'image',
      });
      expect(bare.success).toBe(false);
      const sample = (await allowedSamples()).find((s) => s.name === 'table.csv')!;
      const up = await upload(target().A, room.workspaceId, room.userToken, { channelId: general }, sample);
      const stolen = await request(member, C.sendMessage, {
        clientMessageId: clientId(),
        channelId: general,
        content: 'mine',
        type: 'file',
        fileId: up.body.file.id,
      });
      expect(stolen.success).toBe(false);
      if (!stolen.success) expect(stolen.code).toBe('FILE_NOT_FOUND');
      const first = await request(owner, C.sendMessage, {
        clientMessageId: clientId(),
        channelId: general,
        content: 'x',
        type: 'file',
        fileId: up.body.file.id,
      });
      expect(first.success).toBe(true);
      const again = await request(owner, C.sendMessage, {
        clientMessageId: clientId(),
        channelId: general,
        content: 'x',
        type: 'file',
        fileId: up.body.file.id,
      });
      expect(again.success).toBe(false);
    });

    it('a voice message: webm from the recorder, type voice with its duration', async () => {
      const up = await upload(
        target().A,
        room.workspaceId,
        room.userToken,
        { channelId: general, purpose: 'voice', durationMs: '4200' },
        { name: 'voice-message.webm', type: 'audio/webm', bytes: voiceNote() },
      );
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      expect(up.body.file).toMatchObject({ kind: 'voice', mime: 'audio/webm', durationMs: 4200 });
      const sent = await request(owner, C.sendMessage, {
        clientMessageId: clientId(),
        channelId: general,
        content: 'Voice message',
        type: 'voice',
        fileId: up.body.file.id,
      });
      if (!sent.success) throw new Error(sent.message);
      expect(sent.message.type).toBe('voice');
      const pdf = await upload(
        target().A,
        room.workspaceId,
        room.userToken,
        { channelId: general, purpose: 'voice' },
        (await allowedSamples()).find((s) => s.name === 'paper.pdf')!,
      );
      expect(pdf.status).toBe(415);
    });

    it('profile pictures: images up to 5 MB only, readable by every member', async () => {
      const png = (await allowedSamples()).find((s) => s.name === 'photo.png')!;
      const up = await upload(target().B, room.workspaceId, bob.userToken, { purpose: 'avatar' }, png);
      expect(up.status).toBe(201);
      expect((await download(target().A, up.body.file.url, room.userToken)).status).toBe(200);
      const profile = await request(member, C.updateProfile, {
        workspaceId: room.workspaceId,
        profilePicture: up.body.file.url,
      });
      expect(profile.success).toBe(true);
      // one of this room's files only: another API path is refused
      const other = await request(member, C.updateProfile, {
        workspaceId: room.workspaceId,
        profilePicture: '/api/link-preview/image?u=x',
      });
      expect(other.success).toBe(false);
      const pdf = await upload(
        target().B,
        room.workspaceId,
        bob.userToken,
        { purpose: 'avatar' },
        (await allowedSamples()).find((s) => s.name === 'paper.pdf')!,
      );
      expect(pdf.status).toBe(415);
      expect(pdf.body.message).toBe(ERRORS.PROFILE_IMAGE_TYPE);
      const big = await upload(
        target().B,
        room.workspaceId,
        bob.userToken,
        { purpose: 'avatar' },
        { name: 'big.png', type: 'image/png', bytes: Buffer.concat([png.bytes, Buffer.alloc(5 * MB)]) },
      );
      expect(big.status).toBe(413);
      expect(big.body.message).toBe(ERRORS.PROFILE_IMAGE_TOO_LARGE);
    });

    it('deleting the room removes its files from storage', async () => {
      const doomed = await createRoom(target().A);
      const s = (await socketJoin(target().A, doomed.workspaceId, doomed.user.username, doomed.userToken)).socket;
      sockets.push(s);
      const c = await request(s, C.createChannel, {
        workspaceId: doomed.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      if (!c.success) throw new Error('setup');
      const up = await upload(
        target().A,
        doomed.workspaceId,
        doomed.userToken,
        { channelId: c.channel.id },
        (await allowedSamples())[0]!,
      );
      expect(up.status).toBe(201);
      expect((await target().storedObjects!(doomed.workspaceId)).length).toBe(2); // the image and its thumbnail
      const deleted = await request(s, C.deleteWorkspace, { workspaceId: doomed.workspaceId });
      expect(deleted.success).toBe(true);
      expect(await until(async () => (await target().storedObjects!(doomed.workspaceId)).length === 0)).toBe(true);
    });

    it('a room deleted while a member is uploading: the upload ends with a 4xx or a closed connection, never a 500; nothing of it is kept; the others get workspace-deleted', async () => {
      const doomed = await createRoom(target().A);
      const guest = await joinRoom(target().B, doomed.workspaceId, 'uploader');
      const s = (await socketJoin(target().A, doomed.workspaceId, doomed.user.username, doomed.userToken)).socket;
      const g = (await socketJoin(target().B, doomed.workspaceId, 'uploader', guest.userToken)).socket;
      sockets.push(s, g);
      const c = await request(s, C.createChannel, {
        workspaceId: doomed.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      if (!c.success) throw new Error('setup');
      // A multipart body written slowly: the fields, the file's first bytes, then (after the deletion) the rest.
      const boundary = `----ephemera${clientId()}`;
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="channelId"\r\n\r\n${c.channel.id}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
      );
      let pushRest!: () => void;
      const rest = new Promise<void>((r) => {
        pushRest = r;
      });
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new Uint8Array(head));
          for (let i = 0; i < 4; i++) controller.enqueue(new Uint8Array(256 * 1024));
          await rest;
          try {
            for (let i = 0; i < 8; i++) controller.enqueue(new Uint8Array(256 * 1024));
            controller.enqueue(new Uint8Array(Buffer.from(`\r\n--${boundary}--\r\n`)));
            controller.close();
          } catch {
            /* the server already closed the request */
          }
        },
      });
      const answer = fetch(target().B + API.uploadFile(doomed.workspaceId), {
        method: 'POST',
        body,
        duplex: 'half',
        headers: {
          authorization: `Bearer ${guest.userToken}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
      } as RequestInit).then(
        async (r) => ({ status: r.status, text: await r.text() }),
        (err: Error) => ({ status: 0, text: String(err) }),
      );
      await new Promise((r) => setTimeout(r, 400));
      const seen = next(g, S.workspaceDeleted);
      const deleted = await request(s, C.deleteWorkspace, { workspaceId: doomed.workspaceId });
      expect(deleted.success).toBe(true);
      expect(await seen).toMatchObject({ workspaceId: doomed.workspaceId });
      pushRest();
      const result = await answer;
      // 0: the server closed the connection mid-body; otherwise a clear refusal, never a 5xx
      expect(
        result.status === 0 || (result.status >= 400 && result.status < 500),
        `${result.status} ${result.text}`,
      ).toBe(true);
      const gone = await until(async () => (await target().storedObjects!(doomed.workspaceId)).length === 0);
      expect(
        gone,
        `left in storage: ${JSON.stringify(await target().storedObjects!(doomed.workspaceId))}; answer ${result.status} ${result.text}`,
      ).toBe(true);
      const after = await upload(
        target().A,
        doomed.workspaceId,
        guest.userToken,
        { channelId: c.channel.id },
        (await allowedSamples())[0]!,
      );
      expect(after.status).toBeGreaterThanOrEqual(400);
      expect(after.status).toBeLessThan(500);
    });

    it("deleting a channel removes its files from storage; the room's other files stay", async () => {
      const c = await request(owner, C.createChannel, {
        workspaceId: room.workspaceId,
        name: `temp-${Date.now().toString(36)}`,
        type: 'topic',
        isPrivate: false,
      });
      if (!c.success) throw new Error('setup');
      const pdf = (await allowedSamples()).find((f) => f.name === 'paper.pdf')!;
      const up = await upload(target().A, room.workspaceId, room.userToken, { channelId: c.channel.id }, pdf);
      const key = `${room.workspaceId}/${up.body.file.id}`;
      const others = (await target().storedObjects!(room.workspaceId)).filter((k) => k !== key);
      expect(await target().storedObjects!(room.workspaceId)).toContain(key);
      expect(
        (await request(owner, C.deleteChannel, { workspaceId: room.workspaceId, channelId: c.channel.id })).success,
      ).toBe(true);
      expect(await until(async () => !(await target().storedObjects!(room.workspaceId)).includes(key))).toBe(true);
      expect(await target().storedObjects!(room.workspaceId)).toEqual(others);
      expect((await download(target().A, up.body.file.url, room.userToken)).status).toBe(404);
    });

    it("retention by tier: a pro room's file is removed after 7 days while the extended room lives on", async () => {
      const pro = await createRoom(target().A);
      await target().changeTier!(pro.workspaceId, 'pro');
      const s = (await socketJoin(target().A, pro.workspaceId, pro.user.username, pro.userToken)).socket;
      sockets.push(s);
      const extended = await request(s, C.extendWorkspace, { workspaceId: pro.workspaceId, additionalHours: 720 });
      expect(extended.success).toBe(true);
      const c = await request(s, C.createChannel, {
        workspaceId: pro.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      if (!c.success) throw new Error('setup');
      const up = await upload(
        target().A,
        pro.workspaceId,
        pro.userToken,
        { channelId: c.channel.id },
        (await allowedSamples()).find((f) => f.name === 'paper.pdf')!,
      );
      expect(up.body.file.expiresAt).not.toBeNull();
      target().advanceClock(7 * 24 * 3600 * 1000 + 60_000);
      expect(await until(async () => (await target().storedObjects!(pro.workspaceId)).length === 0, 15_000)).toBe(true);
      expect((await download(target().A, up.body.file.url, pro.userToken)).status).toBe(404);
    });
  });
}

export type { Sample };
