/**
 * Search benchmark (docs/product/performance.md PF18: p99 <= 50 ms over a room with 100,000 messages). Starts the
 * embedded app (`npm start`'s
 * composition, its own PostgreSQL under a temp DATA_DIR), fills one room with SEARCH_BENCH_MESSAGES messages over
 * the real protocol, then times `search-messages` round trips from a socket (client send to ack) for four kinds of
 * query: a word in every message, a word in 1 %, a word in one message, and two words together.
 * Usage: npm run bench:search  (SEARCH_BENCH_MESSAGES=100000, SEARCH_BENCH_QUERIES=200 per kind)
 * The room's send rate limits are raised for this run (the fill is one user sending as fast as acks come back).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { C } from '@ephemera/proto';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../services/embedded/app.ts';
import { createRoom, request, socketJoin, clientId } from '../test/helpers/clients.ts';
import { percentileSorted as percentile } from './lib/stats.ts';

const MESSAGES = Number(process.env.SEARCH_BENCH_MESSAGES ?? 100_000);
const QUERIES = Number(process.env.SEARCH_BENCH_QUERIES ?? 200);
const IN_FLIGHT = 256;
// The fill sends far faster than a person: lift the per-user limits for this process only (said in the output).
process.env.RATE_LIMIT_MESSAGES_PER_USER = '1000000000/1';
process.env.RATE_LIMIT_EVENTS_PER_USER = '1000000000/1';

const vocabulary = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x`);
const wordAt = () => vocabulary[Math.floor(vocabulary.length * Math.random() ** 2)]; // skewed like real text

function content(i: number): string {
  const words = ['everywhere'];
  for (let k = 0; k < 8; k++) words.push(wordAt());
  if (i % 100 === 0) words.push('sometimes');
  if (i === Math.floor(MESSAGES / 2)) words.push('needle');
  return words.join(' ');
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-search-bench-'));
const app = await startEmbedded({ port: 0, host: '127.0.0.1', dataDir, logger: createLogger('bench', 'warn') });
try {
  const room = await createRoom(app.url, `search-bench-${Date.now().toString(36)}`, 'alice');
  const { socket } = await socketJoin(app.url, room.workspaceId, 'alice', room.userToken);
  const channel = await request(socket, C.createChannel, {
    workspaceId: room.workspaceId,
    name: 'general',
    type: 'topic',
    isPrivate: false,
  });
  if (!channel.success) throw new Error(channel.message);

  console.log(`search bench: filling one room with ${MESSAGES} messages (rate limits lifted for this run)`);
  const fill0 = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < MESSAGES) {
      const i = next++;
      const ack = await request(socket, C.sendMessage, {
        clientMessageId: clientId(),
        channelId: channel.channel.id,
        content: content(i),
        type: 'text',
      });
      if (!ack.success) throw new Error(`send ${i} refused: ${ack.code} ${ack.message}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  console.log(`  filled in ${((Date.now() - fill0) / 1000).toFixed(1)} s`);
  // Steady state: PostgreSQL's autovacuum analyzes a table within about a minute of a bulk load; until then the
  // planner has no statistics. Analyze now instead of waiting (the embedded server's port is in its pid file).
  const pgPort = fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3];
  const admin = new pg.Client({ connectionString: `postgres://postgres:ephemera@127.0.0.1:${pgPort}/ephemera` });
  await admin.connect();
  await admin.query('ANALYZE');
  await admin.end();
  console.log('  tables analyzed (as autovacuum would within a minute)');

  const kinds: [string, string, number][] = [
    ['word in every message', 'everywhere', 10],
    ['word in 1 % of messages', 'sometimes', 10],
    ['word in one message', 'needle', 1],
    ['two words', 'everywhere sometimes', 10],
  ];
  console.log(`  ${QUERIES} queries per kind, one at a time, client send to ack:`);
  for (const [label, query, expected] of kinds) {
    const times: number[] = [];
    for (let q = 0; q < QUERIES; q++) {
      const t = performance.now();
      const ack = await request(socket, C.searchMessages, { workspaceId: room.workspaceId, query });
      times.push(performance.now() - t);
      if (!ack.success || ack.messages.length !== expected)
        throw new Error(`search "${query}": ${JSON.stringify(ack).slice(0, 200)}`);
    }
    times.sort((a, b) => a - b);
    const p99 = percentile(times, 99);
    console.log(
      `  ${label.padEnd(26)} p50 ${percentile(times, 50).toFixed(1)} ms  p99 ${p99.toFixed(1)} ms  max ${times.at(-1)!.toFixed(1)} ms  ${p99 <= 50 ? 'PASS' : 'FAIL'} (p99 <= 50 ms)`,
    );
  }
  socket.disconnect();
} finally {
  await app.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
