/**
 * Durability of embedded mode (docs/protocol.md P2, P3): the server process is killed (SIGKILL, no goodbye)
 * in the middle of a conversation and started again on the same data directory. Every acknowledged message is
 * still there and reaches every member exactly once after client dedupe, in per-room sequence order.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { C } from '@ephemera/proto';
import { createRoom, joinRoom, socketJoin, request, http } from '../helpers/clients.ts';
import { ResilientClient } from '../helpers/resilient-client.ts';
import { freePort } from '../../deploy/local/infra.ts';

const repo = path.resolve(import.meta.dirname, '..', '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-restart-'));
let server: ChildProcess | null = null;

async function startServer(port: number): Promise<void> {
  server = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'services/embedded/main.ts')], {
    cwd: repo,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('embedded server did not start');
}

afterAll(async () => {
  // A graceful stop also stops the embedded PostgreSQL (the orphan of the SIGKILL was stopped by the restart).
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => {
      server!.once('exit', r);
      setTimeout(r, 15_000);
    });
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('embedded restart', () => {
  it('P2/P3 a SIGKILL mid-conversation loses no acknowledged message and duplicates none', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    await startServer(port);
    const room = await createRoom(url, undefined, 'alice');
    const bobJoin = await joinRoom(url, room.workspaceId, 'bob');
    const owner = await socketJoin(url, room.workspaceId, 'alice', room.userToken);
    const created = await request(owner.socket, C.createChannel, {
      workspaceId: room.workspaceId,
      name: 'general',
      type: 'topic',
      isPrivate: false,
    });
    if (!created.success) throw new Error(created.message);
    owner.socket.close();
    const channelId = created.channel.id;

    const alice = new ResilientClient(url, {
      workspaceId: room.workspaceId,
      username: 'alice',
      userToken: room.userToken,
    });
    const bob = new ResilientClient(url, {
      workspaceId: room.workspaceId,
      username: 'bob',
      userToken: bobJoin.userToken,
    });
    await Promise.all([alice.waitJoined(), bob.waitJoined()]);

    const acked: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      acked.push((i % 2 ? bob : alice).send(channelId, `msg ${i}`));
      if (i === 20) {
        server!.kill('SIGKILL'); // crash mid-conversation
        await new Promise((r) => server!.once('exit', r));
        await startServer(port);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const stored = (await Promise.all(acked)) as { id: string; seq: number; content: string }[];
    await Promise.all([alice.sync(), bob.sync()]);

    for (const client of [alice, bob]) {
      const contents = [...client.seen.values()].sort((a, b) => a.seq - b.seq).map((m) => m.content);
      expect(new Set(contents).size).toBe(40); // every message, once
      expect(contents.length).toBe(40); // no duplicate stored under another id
      for (const m of stored) expect(client.seen.has(m.id)).toBe(true);
    }
    const seqs = stored.map((m) => m.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => i + 1)); // gap-free per-room sequence
    expect((await http(url, '/healthz')).status).toBe(200);
    alice.close();
    bob.close();
  });
});
