/**
 * The newcomer's contract on one Node line: `npm start` serves a room where two members chat. Starts the product
 * exactly as the README says (npm start: the frontend build, then the embedded server) on a free port with a fresh
 * data folder, opens a room, lets a second member join, sends a message from one and waits for the other to
 * receive it; prints the Node line and the gateway engine the server reports, and exits 0 only if all of it worked.
 * Run by .ci/run on every supported Node line other than the default one (whose whole suite runs), and by hand:
 *   node --import tsx test/smoke/start-and-chat.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { C, S, type Message } from '@ephemera/proto';
import { createRoom, joinRoom, socketJoin, request, next, clientId } from '../helpers/clients.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'ephemera-smoke-'));
const base = `http://127.0.0.1:${port}`;
const out: string[] = [];
const server = spawn('npm', ['start'], {
  cwd: join(import.meta.dirname, '..', '..'),
  detached: true,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    METRICS_PORT: String(await freePort()),
    LOG_LEVEL: 'info',
  },
});
for (const stream of [server.stdout, server.stderr])
  stream.on('data', (c: Buffer) => out.push(...c.toString().split('\n')));
const stop = () => {
  try {
    process.kill(-server.pid!, 'SIGTERM');
  } catch {
    /* gone */
  }
};

async function main(): Promise<string> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`npm start exited with ${server.exitCode}`);
    if (Date.now() > deadline) throw new Error('npm start did not answer /healthz within 240 s');
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const engineLine = out.find((l) => l.includes('gateway engine'));
  const engine = engineLine ? (JSON.parse(engineLine) as { engine: string; why: string }) : null;
  // The page itself, then the chat.
  const page = await fetch(base + '/');
  if (!page.ok || !(await page.text()).includes('<div id="root"'))
    throw new Error(`the app page did not load (${page.status})`);
  const room = await createRoom(base, `smoke-${Date.now().toString(36)}`, 'alice');
  const bob = await joinRoom(base, room.workspaceId, 'bob');
  const alice = await socketJoin(base, room.workspaceId, 'alice', room.userToken);
  const bobSocket = await socketJoin(base, room.workspaceId, 'bob', bob.userToken);
  let channelId = (alice.ack as { workspace?: { channels?: { id: string }[] } }).workspace?.channels?.[0]?.id;
  if (!channelId) {
    const made = await request(alice.socket, C.createChannel, {
      workspaceId: room.workspaceId,
      name: 'general',
      type: 'topic',
      isPrivate: false,
    });
    if (!made.success) throw new Error(`create-channel failed: ${made.message}`);
    channelId = made.channel.id;
  }
  const text = `hello from Node ${process.versions.node}`;
  const arrives = next<Message>(bobSocket.socket, S.message, (m) => m.content === text);
  const sent = await request(alice.socket, C.sendMessage, {
    clientMessageId: clientId(),
    channelId,
    content: text,
    type: 'text',
  });
  if (!sent.success) throw new Error(`send-message failed: ${sent.message}`);
  const got = await arrives;
  alice.socket.disconnect();
  bobSocket.socket.disconnect();
  return `Node ${process.versions.node}: npm start served ${base}; alice's message reached bob (${got.id}); gateway engine ${engine?.engine ?? '?'} (${engine?.why ?? 'not logged'})`;
}

main().then(
  (summary) => {
    console.log(`SMOKE OK ${summary}`);
    stop();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  },
  (err: unknown) => {
    console.error(
      `SMOKE FAILED on Node ${process.versions.node}: ${(err as Error).message}\n--- npm start output (last 40 lines) ---\n${out.slice(-40).join('\n')}`,
    );
    stop();
    process.exit(1);
  },
);
