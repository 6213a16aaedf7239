/**
 * Canary tests of crypto-shredding (docs/crypto.md; docs/product/security.md S20): random strings a room says
 * (message text, the reply that quotes it, an edit, its owner's username and password) are looked for in the raw
 * bytes of every store, and a room is deleted while its members type and reconnect. Used by
 * embedded-canary.test.ts and distributed-canary.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Socket } from 'socket.io-client';
import { API, C, S } from '@ephemera/proto';
import {
  clientId,
  collect,
  connect,
  createRoom,
  http,
  joinRoom,
  next,
  request,
  socketJoin,
  uniqueName,
} from '../helpers/clients.ts';

/** Strings that occur nowhere unless this run wrote them (hex after a fixed prefix). */
export function makeCanaries() {
  const hex = () => randomBytes(8).toString('hex');
  return {
    message: `cnrymsg${hex()}`,
    edit: `cnryedit${hex()}`,
    username: `cn${randomBytes(6).toString('hex')}`, // usernames are at most 20 characters
    password: `cnrypw${hex()}`,
    profileName: `cp${randomBytes(6).toString('hex')}`,
    picture: `cnrypic${hex()}`,
    channel: `cnch${randomBytes(6).toString('hex')}`, // channel names are at most 30 characters
  };
}
export type Canaries = ReturnType<typeof makeCanaries>;

/** Every regular file under the roots (sockets, fifos and vanished files skipped). */
function* filesUnder(root: string): Generator<string> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(root, e.name);
    if (e.isDirectory()) yield* filesUnder(p);
    else if (e.isFile()) yield p;
  }
}

/**
 * Which files under the roots hold which needle, as raw bytes: { needleName: [files] } for the needles found.
 * Files and directories named in `skip` are left out (a file the test itself wrote).
 */
export function findInFiles(
  roots: string[],
  needles: Record<string, string>,
  skip: string[] = [],
): Record<string, string[]> {
  const wanted = Object.entries(needles).map(([name, text]) => [name, Buffer.from(text, 'utf8')] as const);
  const found: Record<string, string[]> = {};
  for (const root of roots) {
    for (const file of filesUnder(root)) {
      if (skip.some((s) => file === s || file.startsWith(`${s}${path.sep}`))) continue;
      let bytes: Buffer;
      try {
        bytes = fs.readFileSync(file);
      } catch {
        continue;
      } // removed while we walked (WAL recycling, temp files)
      for (const [name, needle] of wanted) if (bytes.includes(needle)) (found[name] ??= []).push(file);
    }
  }
  return found;
}

/** How much a scan read: files and megabytes under the roots (printed, the canary test's figures). */
export function scanned(roots: string[]): string {
  let files = 0;
  let bytes = 0;
  for (const root of roots)
    for (const f of filesUnder(root)) {
      files++;
      try {
        bytes += fs.statSync(f).size;
      } catch {
        /* gone */
      }
    }
  return `${files} files, ${(bytes / 1e6).toFixed(1)} MB`;
}

/** The assertion every store check ends with: nothing found, or the list of files that hold what. */
export function expectNoCanary(found: Record<string, string[]>, where: string): void {
  expect(found, `canaries found in ${where}: ${JSON.stringify(found, null, 1)}`).toEqual({});
}

export interface CanaryRoom {
  workspaceId: string;
  name: string;
  ownerToken: string;
  owner: Socket;
  bob: Socket;
  bobToken: string;
  channelId: string;
  close(): void;
}

/**
 * The owner (username and password are canaries) on A, bob on B. The owner says the message canary, bob replies
 * quoting it, the owner edits it to the edit canary, bob renames himself and sets a picture (canaries); bob has seen
 * the edit and a fresh join sees his profile when this returns, so every process that consumes the log has had the
 * room's events.
 */
export async function saySecrets(A: string, B: string, c: Canaries): Promise<CanaryRoom> {
  const name = uniqueName('canary');
  const created = await createRoom(A, name, c.username, c.password);
  const owner = (await socketJoin(A, created.workspaceId, c.username, created.userToken)).socket;
  const joined = await joinRoom(B, created.workspaceId, 'bob', c.password);
  const bob = (await socketJoin(B, created.workspaceId, 'bob', joined.userToken)).socket;
  const channel = await request(owner, C.createChannel, {
    workspaceId: created.workspaceId,
    name: c.channel,
    type: 'topic',
    isPrivate: false,
  });
  if (!channel.success) throw new Error(`create-channel failed: ${channel.message}`);
  const channelId = channel.channel.id;

  const said = await request(owner, C.sendMessage, {
    clientMessageId: clientId(),
    channelId,
    content: `the secret is ${c.message} indeed`,
    type: 'text',
  });
  if (!said.success) throw new Error(`send failed: ${said.message}`);
  const reply = await request(bob, C.sendMessage, {
    clientMessageId: clientId(),
    channelId,
    content: 'a reply',
    type: 'text',
    replyTo: { messageId: said.message.id },
  });
  if (!reply.success) throw new Error(`reply failed: ${reply.message}`);
  // The reply quotes the canary (the server copies the quoted text): the canary now travels in a second record.
  expect(JSON.stringify(reply.message)).toContain(c.message);
  const edited = next<{ messageId: string; content: string }>(
    bob,
    S.messageEdited,
    (m) => m.messageId === said.message.id,
  );
  const edit = await request(owner, C.editMessage, {
    workspaceId: created.workspaceId,
    messageId: said.message.id,
    newContent: `now ${c.edit}`,
  });
  if (!edit.success) throw new Error(`edit failed: ${edit.message}`);
  expect((await edited).content).toContain(c.edit);
  // Profile data: bob renames himself and sets a picture.
  const profile = await request(bob, C.updateProfile, {
    workspaceId: created.workspaceId,
    userId: joined.user.id,
    username: c.profileName,
    profilePicture: `https://example.com/${c.picture}.png`,
  });
  if (!profile.success) throw new Error(`update-profile failed: ${profile.message}`);
  // What members are served is still the plaintext: encryption is invisible to them.
  const history = await request(bob, C.fetchMessages, { channelId, limit: 50 });
  if (!history.success) throw new Error(`fetch failed: ${history.message}`);
  const text = JSON.stringify(history.messages);
  expect(text).toContain(c.edit);
  expect(text).toContain(c.username);
  const probe = await connect(A);
  const rejoin = await request(probe, C.joinWorkspace, {
    workspaceId: created.workspaceId,
    username: c.username,
    userToken: created.userToken,
  });
  probe.disconnect();
  if (!rejoin.success) throw new Error(`rejoin failed: ${rejoin.message}`);
  expect(JSON.stringify(rejoin.workspace)).toContain(c.profileName);
  expect(JSON.stringify(rejoin.workspace)).toContain(c.picture);
  return {
    workspaceId: created.workspaceId,
    name,
    ownerToken: created.userToken,
    owner,
    bob,
    bobToken: joined.userToken,
    channelId,
    close() {
      owner.disconnect();
      bob.disconnect();
    },
  };
}

/** The owner deletes the room; every member socket is told (workspace-deleted), the room answers 404 after. */
export async function deleteRoom(A: string, room: CanaryRoom): Promise<void> {
  const told = next(room.bob, S.workspaceDeleted);
  const ack = await request(room.owner, C.deleteWorkspace, { workspaceId: room.workspaceId });
  expect(ack).toEqual({ success: true, workspaceId: room.workspaceId });
  await told;
  expect((await http(A, API.info(room.workspaceId))).status).toBe(404);
}

/**
 * A room deleted while bob types (typing-start in a loop) and carol reconnects (her socket dropped, a new one
 * joining): the owner's delete succeeds, every connected member gets workspace-deleted, no command answers an
 * INTERNAL error, carol's rejoin is either told of the deletion or refused cleanly, and the room answers 404.
 */
export async function deleteWhileBusy(A: string, B: string): Promise<void> {
  const created = await createRoom(A, uniqueName('busy'), 'alice');
  const owner = (await socketJoin(A, created.workspaceId, 'alice', created.userToken)).socket;
  const bobJoin = await joinRoom(B, created.workspaceId, 'bob');
  const bob = (await socketJoin(B, created.workspaceId, 'bob', bobJoin.userToken)).socket;
  const carolJoin = await joinRoom(A, created.workspaceId, 'carol');
  const carolOld = (await socketJoin(A, created.workspaceId, 'carol', carolJoin.userToken)).socket;
  const channel = await request(owner, C.createChannel, {
    workspaceId: created.workspaceId,
    name: 'general',
    type: 'topic',
    isPrivate: false,
  });
  if (!channel.success) throw new Error(`create-channel failed: ${channel.message}`);
  const channelId = channel.channel.id;
  const sockets: Socket[] = [owner, bob, carolOld];
  const errors: unknown[] = [];
  for (const s of sockets) s.on('error', (e: unknown) => errors.push(e));
  const ownerTold = next(owner, S.workspaceDeleted);
  const bobTold = next(bob, S.workspaceDeleted);

  // bob types until the room is gone; every ack is a success or a clean refusal
  let typing = true;
  const typingAcks: { success: boolean; code?: string }[] = [];
  const typer = (async () => {
    while (typing) {
      typingAcks.push(
        (await request(bob, C.typingStart, { channelId, userId: bobJoin.user.id, username: 'bob' }).catch(() => ({
          success: false,
          code: 'DISCONNECTED',
        }))) as never,
      );
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  // carol's connection drops and she reconnects at the moment of the delete
  carolOld.disconnect();
  const rejoin = (async () => {
    const s = await connect(B);
    sockets.push(s);
    const told = collect(s, S.workspaceDeleted);
    const ack = await request(s, C.joinWorkspace, {
      workspaceId: created.workspaceId,
      username: 'carol',
      userToken: carolJoin.userToken,
    });
    return { ack, told, socket: s };
  })();
  await new Promise((r) => setTimeout(r, 30));
  const deleted = await request(owner, C.deleteWorkspace, { workspaceId: created.workspaceId });
  expect(deleted).toEqual({ success: true, workspaceId: created.workspaceId });
  await Promise.all([ownerTold, bobTold]);
  const carol = await rejoin;
  typing = false;
  await typer;

  if (carol.ack.success) {
    // joined just before the delete: she is told like everyone else
    for (let i = 0; i < 100 && carol.told.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(carol.told).toHaveLength(1);
  } else {
    expect(['WORKSPACE_NOT_FOUND', 'NOT_AUTHENTICATED']).toContain((carol.ack as { code: string }).code);
  }
  const refused = typingAcks.filter((a) => !a.success).map((a) => a.code);
  expect(
    refused.filter((c) => c === 'INTERNAL'),
    JSON.stringify(typingAcks),
  ).toEqual([]);
  // after the delete: commands on the room are refused cleanly, a rejoin is refused, the room answers 404
  const late = await request(owner, C.sendMessage, {
    clientMessageId: clientId(),
    channelId,
    content: 'anyone?',
    type: 'text',
  }).catch(() => null);
  if (late) expect(late.success ? 'accepted' : (late as { code: string }).code).not.toMatch(/accepted|INTERNAL/);
  const again = await connect(A);
  sockets.push(again);
  const refusedJoin = await request(again, C.joinWorkspace, {
    workspaceId: created.workspaceId,
    username: 'bob',
    userToken: bobJoin.userToken,
  });
  expect(refusedJoin.success).toBe(false);
  expect((refusedJoin as { code: string }).code).not.toBe('INTERNAL');
  expect((await http(B, API.info(created.workspaceId))).status).toBe(404);
  expect(errors).toEqual([]);
  for (const s of sockets) s.disconnect();
}
