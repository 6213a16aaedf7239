/**
 * Long-history benchmark in Chromium (docs/product/performance.md PF26: a channel with 10,000 loaded messages keeps
 * a few hundred elements and scrolls at 60 fps). Starts the embedded app (`npm start`'s composition, its own
 * PostgreSQL under a temp DATA_DIR) serving frontend/dist, opens the room in headless Chromium as alice, has bob send
 * SCROLL_BENCH_MESSAGES messages to a second channel over the real protocol (they reach alice's page live, as in a
 * busy room), then prints:
 *  - open: ms from clicking the channel to its newest message shown, and the list's element count;
 *  - scroll: the list scrolled from the newest message towards the oldest at SCROLL_BENCH_PX_PER_FRAME pixels per
 *    animation frame for SCROLL_BENCH_SECONDS, recorded in Chromium's performance trace: frames presented and
 *    dropped (the trace's PipelineReporter frames, what DevTools' Frames track shows) and frames per second, and the
 *    page's own animation-frame intervals (p50, p95, max; frames over 25 ms, i.e. a missed 60 Hz vsync).
 * Usage: npm run bench:scroll  (SCROLL_BENCH_MESSAGES=10000 SCROLL_BENCH_SECONDS=5 SCROLL_BENCH_PX_PER_FRAME=40;
 *   SCROLL_BENCH_TRACE=file.json keeps the trace for DevTools' Performance panel)
 * A headless Chromium with software rendering on the machine's shared cores: the figures count the page's main
 * thread and compositor as this machine runs them, the server idle meanwhile.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { C } from '@ephemera/proto';
import { createLogger } from '@ephemera/platform';
import { startEmbedded } from '../services/embedded/app.ts';
import { createRoom, joinRoom, request, socketJoin } from '../test/helpers/clients.ts';
import { assertFrontendBuilt, launchBrowser, User } from '../frontend/e2e/browser.ts';
import { percentileSorted as percentile } from './lib/stats.ts';

const MESSAGES = Number(process.env.SCROLL_BENCH_MESSAGES ?? 10_000);
const SECONDS = Number(process.env.SCROLL_BENCH_SECONDS ?? 5);
const PX_PER_FRAME = Number(process.env.SCROLL_BENCH_PX_PER_FRAME ?? 40);
const IN_FLIGHT = 40;
// The fill is one person sending far faster than a person can: the per-user limits are lifted for this process.
process.env.RATE_LIMIT_MESSAGES_PER_USER = '1000000000/1';
process.env.RATE_LIMIT_EVENTS_PER_USER = '1000000000/1';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  args?: { frame_reporter?: { state?: string; frame_sequence?: number } };
}

const PRESENTED = new Set(['STATE_PRESENTED_ALL', 'STATE_PRESENTED_PARTIAL']);

/**
 * Frames in a Chromium trace, counted as DevTools' Frames track does: one PipelineReporter per vsync sequence and
 * pipeline (a sequence can have a main and a forked reporter); a sequence is presented when any of its reporters
 * presented, dropped when none did and one dropped, idle when nothing wanted an update.
 */
function framesOfTrace(events: TraceEvent[]): {
  presented: number;
  dropped: number;
  idle: number;
  spanMs: number;
} {
  const states = new Map<number, Set<string>>();
  const ts: number[] = [];
  for (const e of events) {
    const fr = e.name === 'PipelineReporter' && e.ph === 'b' ? e.args?.frame_reporter : undefined;
    if (fr?.frame_sequence === undefined || !fr.state) continue;
    ts.push(e.ts);
    const seen = states.get(fr.frame_sequence) ?? new Set<string>();
    seen.add(fr.state);
    states.set(fr.frame_sequence, seen);
  }
  let presented = 0;
  let dropped = 0;
  let idle = 0;
  for (const seen of states.values()) {
    if ([...seen].some((s) => PRESENTED.has(s))) presented += 1;
    else if (seen.has('STATE_DROPPED')) dropped += 1;
    else idle += 1;
  }
  ts.sort((a, b) => a - b);
  return { presented, dropped, idle, spanMs: ts.length > 1 ? (ts.at(-1)! - ts[0]!) / 1000 : 0 };
}

assertFrontendBuilt();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-scroll-bench-'));
const app = await startEmbedded({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  logger: createLogger('bench', 'warn'),
  frontendDist: process.env.E2E_FRONTEND_DIST,
});
const browser = await launchBrowser();
try {
  const roomName = `scroll-bench-${Date.now().toString(36)}`;
  const created = await createRoom(app.url, roomName, 'alice');
  const { workspaceId } = created;
  const owner = await socketJoin(app.url, workspaceId, 'alice', created.userToken);
  const channel = async (name: string) => {
    const ack = await request(owner.socket, C.createChannel, { workspaceId, name, type: 'topic', isPrivate: false });
    if (!ack.success) throw new Error(ack.message);
    return ack.channel.id;
  };
  await channel('general');
  const long = await channel('long');
  owner.socket.close();
  const bob = await joinRoom(app.url, workspaceId, 'bob');
  const { socket } = await socketJoin(app.url, workspaceId, 'bob', bob.userToken);

  const alice = await User.open(browser, 'alice', app.url);
  await alice.enterRoom({ workspaceId, userToken: created.userToken, username: 'alice', roomName });

  const fill0 = Date.now();
  let next = 1;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next <= MESSAGES) {
        const i = next++;
        const ack = await request(socket, C.sendMessage, {
          clientMessageId: `s${i.toString(36)}x${fill0.toString(36)}`,
          channelId: long,
          content: i % 7 === 0 ? `message ${i}: a longer line that wraps ${'word '.repeat(40)}` : `message ${i}`,
          type: 'text',
        });
        if (!ack.success) throw new Error(`message ${i}: ${ack.message}`);
      }
    }),
  );
  console.log(`scroll bench: ${MESSAGES} messages sent in ${Date.now() - fill0} ms (they reach alice's page live)`);

  const page = alice.page;
  const list = alice.byTestId('message-list');
  const newest = page.locator('[data-testid="message-content"]', { hasText: new RegExp(`^message ${MESSAGES}$`) });
  // the page takes the live messages in first (a busy room's reader): done when the channel's unread badge
  // (its label: the exact count) counts them all; opening is timed from there
  const badge = page.locator(`[data-testid="channel-row"][data-channel-id="${long}"] [data-testid="unread-badge"]`);
  const catch0 = Date.now();
  await page
    .waitForFunction(
      ([sel, label]) => document.querySelector(sel)?.getAttribute('aria-label') === label,
      // the count as the English interface writes it (10,000)
      [`[data-channel-id="${long}"] [data-testid="unread-badge"]`, `${MESSAGES.toLocaleString('en')} unread`] as const,
      { timeout: 300_000, polling: 500 },
    )
    .catch(async () => {
      // e.g. the page's connection dropped under load and it re-synced the latest page only: not the case measured
      const label = await badge.getAttribute('aria-label').catch(() => '?');
      throw new Error(`the page did not take in all ${MESSAGES} messages (badge: ${label}); no figures`);
    });
  console.log(`catch-up: the page counted the last live message ${Date.now() - catch0} ms after the last ack`);
  const open0 = Date.now();
  await page.locator(`[data-testid="channel-row"][data-channel-id="${long}"]`).click({ timeout: 180_000 });
  await newest.waitFor({ timeout: 120_000 });
  const openMs = Date.now() - open0;
  await alice.byTestId('virtual-rows').waitFor({ timeout: 60_000 });
  const elements = await list.evaluate((el) => el.querySelectorAll('*').length);
  await page.waitForTimeout(1000);

  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'benchmark', 'cc'],
  });
  // The scroll loop runs in the page; written as source text because the bundler that runs this file (tsx) wraps
  // named functions in a helper the page does not have.
  const intervals = (await page.evaluate(`new Promise((resolve) => {
    const el = document.querySelector('[data-testid="message-list"]');
    const out = [];
    let last = performance.now();
    const end = last + ${SECONDS * 1000};
    requestAnimationFrame(function step(t) {
      out.push(t - last);
      last = t;
      el.scrollTop = Math.max(0, el.scrollTop - ${PX_PER_FRAME});
      if (t < end) requestAnimationFrame(step);
      else resolve(out.slice(1));
    });
  })`)) as number[];
  const traceText = String(await browser.stopTracing());
  if (process.env.SCROLL_BENCH_TRACE) fs.writeFileSync(process.env.SCROLL_BENCH_TRACE, traceText);
  const trace = JSON.parse(traceText) as { traceEvents: TraceEvent[] };
  const frames = framesOfTrace(trace.traceEvents);
  const sorted = [...intervals].sort((a, b) => a - b);
  const scrolledPx = intervals.length * PX_PER_FRAME;
  const elementsAfter = await list.evaluate((el) => el.querySelectorAll('*').length);

  console.log(`open: ${openMs} ms from the click to message ${MESSAGES} shown; ${elements} elements in the list`);
  console.log(
    `scroll (trace): ${frames.presented} frames presented, ${frames.dropped} dropped, ${frames.idle} idle over` +
      ` ${frames.spanMs.toFixed(0)} ms` +
      ` = ${((frames.presented * 1000) / Math.max(1, frames.spanMs)).toFixed(1)} fps`,
  );
  console.log(
    `scroll (animation frames): ${intervals.length} frames in ${SECONDS} s = ${(intervals.length / SECONDS).toFixed(1)} fps;` +
      ` interval p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms,` +
      ` max ${sorted.at(-1)!.toFixed(1)} ms; ${intervals.filter((x) => x > 25).length} over 25 ms;` +
      ` ${scrolledPx} px scrolled; ${elementsAfter} elements in the list after`,
  );
  if (alice.pageErrors.length) console.log(`page errors: ${alice.pageErrors.join('\n')}`);
  socket.close();
  await alice.close();
} finally {
  await browser.close().catch(() => {});
  await app.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
