/**
 * The control endpoint the k6 scripts call (K6_CONTROL): the server processes' RSS (W1) and a barrier (every VU's
 * sockets joined) with an RSS reading taken a settle time after it.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Watched } from '../lib/stats.ts';
import type { RunningTarget } from '../lib/running-target.ts';

function rssKb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** The processes whose RSS is "the server's" for W1: embedded = the app; distributed = the gateways (nginx apart). */
export function memoryProcesses(
  target: RunningTarget | null,
  extra: Watched[],
): { counted: Watched[]; shown: Watched[] } {
  const all = [...(target?.watched ?? []), ...extra];
  const gateways = all.filter((w) => w.label.startsWith('gateway'));
  const counted = gateways.length ? gateways : all.filter((w) => w.label === 'node' || w.label === 'server');
  const shown = all.filter((w) => counted.includes(w) || w.label === 'nginx');
  return { counted, shown };
}

/** The control endpoint the k6 scripts call (K6_CONTROL): RSS, and a join barrier with an RSS reading at it. */
export function startControl(
  getProcs: () => { counted: Watched[]; shown: Watched[] },
): Promise<{ server: Server; url: string }> {
  let state = { expected: 0, settleMs: 3000, ready: 0, failed: 0, start: 0, end: 0, measured: null as unknown };
  const rss = () => {
    const { counted, shown } = getProcs();
    const byLabel: Record<string, number | null> = {};
    for (const w of shown) byLabel[`${w.label}:${w.pid}`] = rssKb(w.pid);
    const totalKb = counted.reduce((a, w) => a + (rssKb(w.pid) ?? 0), 0);
    return { totalKb, counted: counted.map((w) => `${w.label}:${w.pid}`), byLabel, at: Date.now() };
  };
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const q = (k: string) => Number(u.searchParams.get(k) ?? 0);
    const send = (body: unknown) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    req.resume();
    if (u.pathname === '/rss') return send(rss());
    if (u.pathname === '/reset') {
      state = {
        expected: q('expected'),
        settleMs: u.searchParams.has('settleMs') ? q('settleMs') : 3000,
        ready: 0,
        failed: 0,
        start: 0,
        end: 0,
        measured: null,
      };
      return send({ ok: true });
    }
    if (u.pathname === '/ready') {
      state.ready += q('n');
      state.failed += q('failed');
      if (q('start') > 0) state.start = state.start ? Math.min(state.start, q('start')) : q('start');
      if (q('end') > 0) state.end = Math.max(state.end, q('end'));
      if (state.expected > 0 && state.ready + state.failed >= state.expected && !state.measured) {
        const s = state;
        setTimeout(() => {
          if (s === state) s.measured = rss();
        }, state.settleMs);
      }
      return send({ ok: true });
    }
    if (u.pathname === '/status')
      return send({ ...state, windowMs: state.end && state.start ? state.end - state.start : 0 });
    res.statusCode = 404;
    res.end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` }),
    ),
  );
}
