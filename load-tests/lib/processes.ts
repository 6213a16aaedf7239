/**
 * The bench's child processes: `node` pinned to a core (taskset), free ports, the last lines of a child's output,
 * stopping a child and what it started, waiting for a server to answer HTTP, and running a shell script. The
 * targets (targets.ts, distributed-stack.ts) and the generator (generator/control.ts) start theirs with these.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { processTree, readProcStat } from './stats.ts';
import type { Config } from './config.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
const HAS_TASKSET = spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status === 0;

/** `node <args>`, pinned to `core` when taskset exists and pinning is on. */
export function spawnNode(
  args: string[],
  opts: { core: number | null; env?: NodeJS.ProcessEnv; ipc?: boolean },
): ChildProcess {
  const cmd = opts.core !== null && HAS_TASKSET ? 'taskset' : process.execPath;
  const argv = cmd === 'taskset' ? ['-c', String(opts.core), process.execPath, ...args] : args;
  return spawn(cmd, argv, {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe', ...(opts.ipc ? ['ipc' as const] : [])],
  });
}
export const pinned = (cfg: Config) => cfg.pin && HAS_TASKSET;

export function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Keeps the last lines of a stream (for error reports) and calls onLine for each line. */
export function tail(stream: NodeJS.ReadableStream | null, keep: string[], onLine?: (l: string) => void): void {
  let buf = '';
  stream?.on('data', (d: Buffer) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      keep.push(line);
      if (keep.length > 40) keep.shift();
      onLine?.(line);
    }
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; then kills descendants that outlived it (same pid and command name). */
export async function stopProcess(child: ChildProcess, graceMs = 10000): Promise<void> {
  const pid = child.pid!;
  const tree = processTree(pid);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const t0 = Date.now();
    while (child.exitCode === null && child.signalCode === null && Date.now() - t0 < graceMs) await sleep(50);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await sleep(200);
  for (const p of tree) {
    if (p.pid === pid) continue;
    const now = readProcStat(p.pid);
    if (now && now.comm === p.comm)
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
  }
}

/** Polls the origin until it answers HTTP (readiness endpoint if it has one). */
export async function waitHttp(origin: string, timeoutMs: number, alive: () => string | null): Promise<void> {
  const t0 = Date.now();
  let last = '';
  while (Date.now() - t0 < timeoutMs) {
    const dead = alive();
    if (dead) throw new Error(dead);
    for (const path of ['/readyz', '/healthz']) {
      try {
        const r = await fetch(origin + path, { signal: AbortSignal.timeout(2000) });
        if (r.ok) return;
        last = `${path} -> HTTP ${r.status}`;
        if (r.status === 404 && path === '/healthz') return; // answers HTTP but has no probe: take it as up
      } catch (e) {
        last = `${path} -> ${(e as Error).message}`;
      }
    }
    await sleep(300);
  }
  throw new Error(`${origin} not ready after ${timeoutMs / 1000} s (${last})`);
}

export function runScript(
  path: string,
  timeoutS: number,
  core: number | null,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; out: string[] }> {
  return new Promise((resolve) => {
    const out: string[] = [];
    const cmd = core !== null && HAS_TASKSET ? 'taskset' : 'bash';
    const args = cmd === 'taskset' ? ['-c', String(core), 'bash', path] : [path];
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const show = (l: string) => console.log(`  | ${l}`);
    tail(child.stdout, out, show);
    tail(child.stderr, out, show);
    const timer = setTimeout(() => {
      out.push(`(killed after ${timeoutS} s)`);
      child.kill('SIGTERM');
    }, timeoutS * 1000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}
