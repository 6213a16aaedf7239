/**
 * Upload throughput (issue 8), `npm run bench -- --workload=files`: a 100 MB file (FILES_BENCH_MB) uploaded to the
 * embedded app (gateway proxy -> busboy -> type check -> AES-256-GCM chunks -> storage), against a plain file copy
 * of the same file on the same machine (read stream -> write stream). The goal: local disk at least 70% of the copy.
 * The S3 adapter's figure is measured the same way against a versitygw (S3 over a folder on the same disk).
 * The client streams the file from disk with backpressure (node:http), in this process. Median of 3 runs each.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { API, C } from '@ephemera/proto';
import { createLogger } from '@ephemera/platform';
import { createRoom, request, socketJoin } from '../test/helpers/clients.ts';
import { startEmbedded } from '../services/embedded/app.ts';
import { startVersitygw } from '../deploy/local/versitygw.ts';

const MB = 1024 * 1024;
const SIZE_MB = Number(process.env.FILES_BENCH_MB ?? 100);
const RUNS = 3;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-files-bench-'));
const source = path.join(tmp, 'source.pdf');

function makeSource(): void {
  const fd = fs.openSync(source, 'w');
  fs.writeSync(fd, Buffer.from('%PDF-1.4\n'));
  for (let left = SIZE_MB * MB - 9; left > 0; left -= 4 * MB) fs.writeSync(fd, randomBytes(Math.min(4 * MB, left)));
  fs.closeSync(fd);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function plainCopy(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const target = path.join(tmp, `copy-${i}`);
    const t = performance.now();
    await pipeline(fs.createReadStream(source), fs.createWriteStream(target));
    times.push((performance.now() - t) / 1000);
    fs.rmSync(target);
  }
  return SIZE_MB / median(times);
}

/** One upload of the source file as multipart/form-data, streamed from disk. */
function upload(base: string, workspaceId: string, token: string, channelId: string): Promise<number> {
  const boundary = `----bench${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="channelId"\r\n\r\n${channelId}\r\n`
    + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(base + API.uploadFile(workspaceId), {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => { body += c.toString(); });
      res.on('end', () => (res.statusCode === 201 ? resolve((performance.now() - t) / 1000) : reject(new Error(`${res.statusCode} ${body}`))));
    });
    req.on('error', reject);
    req.write(head);
    const file = fs.createReadStream(source);
    file.pipe(req, { end: false });
    file.on('end', () => req.end(tail));
  });
}

async function viaApp(label: string, env: Record<string, string>): Promise<number> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-files-bench-app-')); // PostgreSQL's user must reach it
  const app = await startEmbedded({ port: 0, host: '127.0.0.1', dataDir, logger: createLogger('files-bench', 'silent') });
  process.env = saved;
  try {
    const room = await createRoom(app.url);
    await app.rooms.changeTier({ workspaceId: room.workspaceId, tier: 'business', reason: 'bench' });
    const { socket } = await socketJoin(app.url, room.workspaceId, room.user.username, room.userToken);
    const ch = await request(socket, C.createChannel, { workspaceId: room.workspaceId, name: 'general', type: 'topic', isPrivate: false });
    socket.disconnect();
    if (!ch.success) throw new Error(ch.message);
    await new Promise((r) => setTimeout(r, 500)); // the tier change reaches messaging's read model
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await upload(app.url, room.workspaceId, room.userToken, ch.channel.id));
    const rate = SIZE_MB / median(times);
    console.log(`  ${label}: ${rate.toFixed(0)} MB/s (median of ${RUNS}: ${times.map((s) => s.toFixed(2)).join(', ')} s)`);
    return rate;
  } finally {
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  makeSource();
  console.log(`files: ${SIZE_MB} MB upload throughput, median of ${RUNS} runs, ${os.cpus().length} cores`);
  const copy = await plainCopy();
  console.log(`  plain file copy (read stream -> write stream): ${copy.toFixed(0)} MB/s`);
  const local = await viaApp('upload to local disk (embedded)', {});
  console.log(`  local disk / plain copy: ${((local / copy) * 100).toFixed(0)}% (goal >= 70%)`);
  const s3 = await startVersitygw({ dir: path.join(tmp, 's3') });
  try {
    await viaApp('upload to S3 (versitygw on the same disk)', {
      S3_ENDPOINT: s3.endpoint, S3_BUCKET: 'bench-files', S3_ACCESS_KEY_ID: s3.accessKeyId, S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_REGION: s3.region, S3_FORCE_PATH_STYLE: 'true',
    });
  } finally {
    await s3.stop();
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
