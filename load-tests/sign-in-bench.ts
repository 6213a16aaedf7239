/**
 * Sign-in benchmark (docs/product/performance.md PF24: sign-in p99, printed). Starts the embedded app (its own
 * PostgreSQL under a temp
 * DATA_DIR) mailing through a real Mailpit, then signs SIGN_IN_BENCH_USERS new addresses in, SIGN_IN_BENCH_CONCURRENCY
 * at a time, over HTTP as a browser does: POST /api/auth/request-code (the code mailed over SMTP), the code read from
 * Mailpit's API (not timed: that is the user reading mail), POST /api/auth/register (code check, account events
 * sealed and appended, projection, session). Prints p50/p95/p99 of both timed calls and the throughput.
 * Usage: npm run bench:sign-in   (SIGN_IN_BENCH_USERS=300, SIGN_IN_BENCH_CONCURRENCY=8)
 * The per-address code limit is lifted for this process (every bench user comes from 127.0.0.1).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AUTH_API } from '@ephemera/proto';
import { createLogger, rateLimitConfig } from '@ephemera/platform';
import { startEmbedded } from '../services/embedded/app.ts';
import { startMailpit } from '../test/helpers/mailpit.ts';
import { percentileSorted as percentile } from './lib/stats.ts';

const USERS = Number(process.env.SIGN_IN_BENCH_USERS ?? 300);
const CONCURRENCY = Number(process.env.SIGN_IN_BENCH_CONCURRENCY ?? 8);

async function post(url: string, body: unknown): Promise<{ ms: number; status: number; json: any }> {
  const t = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  return { ms: performance.now() - t, status: res.status, json };
}

const mail = await startMailpit();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-sign-in-bench-'));
const app = await startEmbedded({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  logger: createLogger('bench', 'silent'),
  smtpUrl: mail.smtpUrl,
  google: null,
  rateLimits: rateLimitConfig(process.env, { signInCodesPerAddress: { points: 1_000_000, durationSec: 3600 } }),
});
const requestMs: number[] = [];
const registerMs: number[] = [];
let next = 0;
const started = performance.now();
try {
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < USERS) {
        const email = `bench-${next++}-${Date.now().toString(36)}@example.test`;
        const since = Date.now();
        const asked = await post(app.url + AUTH_API.requestCode, { email });
        if (asked.status !== 200) throw new Error(`request-code ${asked.status}`);
        requestMs.push(asked.ms);
        const code = /\b(\d{6})\b/.exec((await mail.latestTo(email, { since })).text)![1];
        const signedIn = await post(app.url + AUTH_API.register, { email, username: 'bench', code });
        if (signedIn.status !== 200 || !signedIn.json.token) throw new Error(`register ${signedIn.status}`);
        registerMs.push(signedIn.ms);
      }
    }),
  );
  const wall = (performance.now() - started) / 1000;
  const line = (name: string, xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `${name.padEnd(34)} n=${s.length}  p50 ${percentile(s, 50).toFixed(1)} ms  p95 ${percentile(s, 95).toFixed(1)} ms  p99 ${percentile(s, 99).toFixed(1)} ms`;
  };
  console.log(
    `sign-in bench (embedded, Mailpit SMTP): ${USERS} new accounts, ${CONCURRENCY} at a time, ${(USERS / wall).toFixed(1)} sign-ins/s end to end (mail reading included)`,
  );
  console.log(line('request-code (code mailed over SMTP)', requestMs));
  console.log(line('register (code checked, account, session)', registerMs));
} finally {
  await app.stop();
  await mail.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
