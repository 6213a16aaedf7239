/**
 * Starting and stopping the servers under test: the baselines and the embedded app as child processes pinned to
 * core 0, the distributed stack through deploy/local/up.sh and down.sh. Each running target says which processes
 * to watch for CPU time.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processTree, readProcStat, type Watched } from './stats.ts';
import { startIngress } from '../../deploy/local/ingress.ts';
import { startLayer4 } from '../../deploy/local/layer4.ts';
import { STACK_PORTS, internalPortOf, metricsPortOf, stackPorts } from '../../deploy/local/ports.ts';
import { serviceClient, serviceCredential } from '../../services/platform/src/index.ts';
import { assertLocal, type Config, type TargetName } from './config.ts';
import type { TargetSpec } from '../generator/protocol.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
const HAS_TASKSET = spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status === 0;

export interface RunningTarget {
  name: TargetName;
  spec: TargetSpec;
  watched: Watched[];
  /** the gateways' /metrics (server-side latency figures, server-latency.ts); absent for the baselines */
  metricsUrls?: string[];
  stop(): Promise<void>;
}
/** A target that could not run; the report says why instead of showing numbers. */
export class NotRun extends Error {}

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

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

function freePort(): Promise<number> {
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
function tail(stream: NodeJS.ReadableStream | null, keep: string[], onLine?: (l: string) => void): void {
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
async function stopProcess(child: ChildProcess, graceMs = 10000): Promise<void> {
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

async function startBaseline(name: 'b0' | 'b1', cfg: Config): Promise<RunningTarget> {
  const file = name === 'b0' ? 'load-tests/baselines/b0-uws-relay.ts' : 'load-tests/baselines/b1-socketio.ts';
  const child = spawnNode(['--import', 'tsx', file], { core: cfg.pin ? 0 : null, env: { PORT: '0' } });
  const err: string[] = [];
  tail(child.stderr, err);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in 20 s: ${err.join('\n')}`)), 20000);
    tail(child.stdout, [], (l) => {
      const m = /^LISTENING (\d+)/.exec(l);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    // exit 2: B0 needs uWS, which does not load on this Node line and C library (the reason is on stderr)
    child.on('exit', (c) => {
      clearTimeout(timer);
      reject(new (c === 2 ? NotRun : Error)(`${name} exited (${c}): ${err.join('\n')}`));
    });
  });
  const spec: TargetSpec =
    name === 'b0' ? { kind: 'b0', url: `ws://127.0.0.1:${port}/` } : { kind: 'b1', origin: `http://127.0.0.1:${port}` };
  return { name, spec, watched: [{ label: 'node', pid: child.pid! }], stop: () => stopProcess(child) };
}

/**
 * B1 behind the ingress of the distributed stack (deploy/local/ingress.ts: the same nginx and configuration, both
 * gateway upstreams pointing at B1). Nothing of the product runs, so this is the best any stack behind that ingress
 * can do on this machine: its capacity bounds the distributed target's, and nginx's CPU here is the hop's own cost.
 * nginx is pinned as the distributed stack is (BENCH_PIN_DISTRIBUTED=1: core 0 with the server; default: not).
 */
async function startB1BehindIngress(cfg: Config, layer4 = false): Promise<RunningTarget> {
  const b1 = await startBaseline('b1', cfg);
  const b1Port = Number(new URL((b1.spec as { origin: string }).origin).port);
  const runDir = mkdtempSync(join(tmpdir(), 'ephemera-bench-ingress-'));
  try {
    // b1-l4: nginx's stream module instead (deploy/local/layer4.ts), the chart's LoadBalancer path
    const ingress = layer4
      ? await startLayer4({ runDir, port: await freePort(), gatewayPorts: [b1Port, b1Port] })
      : await startIngress({
          runDir,
          port: await freePort(),
          gateway1Port: b1Port,
          gateway2Port: b1Port,
          roomPort: b1Port,
        });
    const nginxPid = ingress.child.pid!;
    if (cfg.pinDistributed && pinned(cfg))
      for (const p of processTree(nginxPid))
        spawnSync('taskset', ['-p', '-c', '0', String(p.pid)], { stdio: 'ignore' });
    return {
      name: layer4 ? 'b1-l4' : 'b1-ingress',
      spec: { kind: 'b1', origin: ingress.url },
      watched: [...b1.watched, { label: 'nginx', pid: nginxPid }],
      stop: async () => {
        await ingress.stop();
        await b1.stop();
        rmSync(runDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await b1.stop();
    rmSync(runDir, { recursive: true, force: true });
    throw new NotRun(`nginx in front of B1 did not start: ${(e as Error).message}`);
  }
}

/** Polls the origin until it answers HTTP (readiness endpoint if it has one). */
async function waitHttp(origin: string, timeoutMs: number, alive: () => string | null): Promise<void> {
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

async function startEmbedded(cfg: Config): Promise<RunningTarget> {
  // the brief names services/embedded.ts; the app ships services/embedded/main.ts; BENCH_EMBEDDED_ENTRY overrides
  const candidates = process.env.BENCH_EMBEDDED_ENTRY
    ? [process.env.BENCH_EMBEDDED_ENTRY]
    : ['services/embedded.ts', 'services/embedded/main.ts'];
  const entry = candidates.find((c) => existsSync(join(ROOT, c)));
  if (!entry) throw new NotRun(`no embedded entry point: ${candidates.join(' or ')} does not exist`);
  const port = await freePort();
  const metricsPort = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'ephemera-bench-'));
  const child = spawnNode(['--import', 'tsx', entry], {
    core: cfg.pin ? 0 : null,
    env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, METRICS_PORT: String(metricsPort) },
  });
  console.log(`  node --import tsx ${entry} (PORT=${port} DATA_DIR=${dataDir})`);
  const out: string[] = [];
  tail(child.stdout, out);
  tail(child.stderr, out);
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitHttp(origin, 120000, () =>
      child.exitCode !== null ? `${entry} exited with code ${child.exitCode}:\n${out.join('\n')}` : null,
    );
  } catch (e) {
    await stop();
    throw new NotRun((e as Error).message);
  }
  return {
    name: 'embedded',
    spec: { kind: 'app', origin },
    watched: [{ label: 'node', pid: child.pid! }],
    metricsUrls: [`http://127.0.0.1:${metricsPort}/metrics`],
    stop,
  };
}

// ---------------------------------------------------------------- distributed

const UP = join(ROOT, 'deploy', 'local', 'up.sh');
const DOWN = join(ROOT, 'deploy', 'local', 'down.sh');
let distributedUp: { origin: string; ranUp: boolean; failed?: string; env: NodeJS.ProcessEnv; runDir: string } | null =
  null;

/**
 * By default the bench's stack gets its own run directory (fresh data) and free ports, so it neither collides with
 * a stack or test suite someone else runs on the machine nor touches theirs (BENCH_STACK_ISOLATE=0: the defaults).
 */
async function stackEnv(isolate: boolean): Promise<{ env: NodeJS.ProcessEnv; runDir: string }> {
  if (!isolate) return { env: {}, runDir: process.env.EPHEMERA_RUN_DIR ?? join(ROOT, 'deploy', 'local', '.run') };
  const runDir = mkdtempSync(join(tmpdir(), 'ephemera-bench-stack-'));
  const names = Object.values(STACK_PORTS).map(([variable]) => variable);
  // Below Linux's ephemeral range (32768-60999), as stack.ts's defaults are: a port in it can be taken meanwhile as
  // the source port of an outgoing connection (the services' own to PostgreSQL, Kafka and Redis as they start), and
  // a service's metrics port (ports.ts: metricsPortOf) then fails to bind: the bench read no figures from it.
  const ports = new Set<number>();
  // each port brings its metrics and internal listeners' (ports.ts)
  const besides = (p: number) => [metricsPortOf(p), internalPortOf(p)];
  const used = (p: number) => ports.has(p) || [...ports].some((q) => besides(q).includes(p));
  while (ports.size < names.length) {
    const port = 20_000 + Math.floor(Math.random() * 9_000);
    const all = [port, ...besides(port)];
    if (!all.some(used) && (await Promise.all(all.map(canListen))).every(Boolean)) ports.add(port);
  }
  const list = [...ports];
  return {
    env: { EPHEMERA_RUN_DIR: runDir, ...Object.fromEntries(names.map((n, i) => [n, String(list[i])])) },
    runDir,
  };
}

function runScript(
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

/** The service processes: deploy/local/.run/*.pid if present, else by command line. */
function distributedProcesses(RUN_DIR: string): Watched[] {
  const found: Watched[] = [];
  if (existsSync(RUN_DIR)) {
    // the supervisor (stack.pid) last: its tree then only adds what no service pid covers (postgres, redis, kafka)
    const files = readdirSync(RUN_DIR)
      .filter((f) => f.endsWith('.pid'))
      .sort((a, b) => Number(a === 'stack.pid') - Number(b === 'stack.pid') || a.localeCompare(b));
    for (const f of files) {
      const pid = Number(readFileSync(join(RUN_DIR, f), 'utf8').trim());
      if (pid > 0 && readProcStat(pid) && !found.some((w) => w.pid === pid))
        found.push({ label: f.replace(/\.pid$/, ''), pid });
    }
    if (found.length) return found;
  }
  const pgrep = (args: string[]) =>
    (spawnSync('pgrep', args, { encoding: 'utf8' }).stdout ?? '')
      .split('\n')
      .map(Number)
      .filter((p) => p > 0 && p !== process.pid);
  for (const s of ['gateway', 'room', 'messaging', 'presence', 'billing', 'admin-analytics']) {
    for (const pid of pgrep(['-f', `services/${s}/`])) found.push({ label: s, pid });
  }
  for (const [label, args] of [
    ['kafka', ['-f', 'kafka.Kafka']],
    ['postgres', ['-x', 'postgres']],
    ['redis', ['-x', 'redis-server']],
    ['nginx', ['-x', 'nginx']],
  ] as const) {
    // keep only the roots (a postmaster, the nginx master): their trees hold the rest
    const pids = pgrep([...args]);
    for (const pid of pids) if (!pids.includes(readProcStat(pid)?.ppid ?? -1)) found.push({ label, pid });
  }
  return found;
}

/**
 * The running stack's app through its HTTP ingress (distributed), or through its layer-4 entry (distributed-l4:
 * nginx's stream module to the gateways, which forward HTTP to the ingress). Each counts its own entry's nginx.
 */
async function startDistributed(cfg: Config, layer4 = false): Promise<RunningTarget> {
  if (!distributedUp) {
    if (cfg.distributedOrigin)
      distributedUp = { origin: cfg.distributedOrigin, ranUp: false, ...(await stackEnv(false)) };
    else {
      if (!existsSync(UP)) throw new NotRun('deploy/local/up.sh does not exist');
      const se = await stackEnv(cfg.isolateStack);
      const shown = Object.entries(se.env)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      console.log(
        `  starting the distributed stack: ${shown} bash deploy/local/up.sh${cfg.pinDistributed ? ' (pinned to core 0)' : ''}`,
      );
      const r = await runScript(UP, cfg.upTimeoutS, cfg.pinDistributed && cfg.pin ? 0 : null, se.env);
      // down.sh runs at the end even after a failed up.sh, but never on a stack someone else started
      distributedUp = { origin: '', ranUp: !r.out.some((l) => l.includes('already running')), ...se };
      if (r.code !== 0) {
        distributedUp.failed = `deploy/local/up.sh failed (exit ${r.code}):\n${r.out.slice(-15).join('\n')}`;
        throw new NotRun(distributedUp.failed);
      }
      const urls = r.out.join('\n').match(/https?:\/\/[^\s"'`)]+/g);
      distributedUp.origin = (urls?.[urls.length - 1] ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
    }
  }
  if (distributedUp.failed) throw new NotRun(distributedUp.failed);
  const origin = layer4
    ? `http://127.0.0.1:${stackPorts({ ...process.env, ...distributedUp.env }).l4}`
    : assertLocal(distributedUp.origin);
  try {
    await waitHttp(origin, 60000, () => null);
  } catch (e) {
    throw new NotRun((e as Error).message);
  }
  const watched = distributedProcesses(distributedUp.runDir).filter((w) => layer4 || w.label !== 'nginx-l4');
  if (watched.length === 0) throw new NotRun('no service process found (deploy/local/.run/*.pid or pgrep)');
  if (layer4 && !watched.some((w) => w.label === 'nginx-l4'))
    throw new NotRun('the stack has no layer-4 entry (deploy/local/layer4.ts: is libnginx-mod-stream installed?)');
  const { gateway1, gateway2 } = distributedPorts();
  const metricsUrls = [gateway1, gateway2].map((p) => `http://127.0.0.1:${metricsPortOf(p)}/metrics`);
  return {
    name: layer4 ? 'distributed-l4' : 'distributed',
    spec: { kind: 'app', origin },
    watched,
    metricsUrls,
    stop: async () => {},
  };
}

/**
 * The running distributed stack's ports (up.sh's variables; its defaults when the bench did not choose them): the
 * calls bench reaches each gateway replica directly and the room service's internal change-tier.
 */
export function distributedPorts(): { gateway1: number; gateway2: number; room: number } {
  const { gateway1, gateway2, room } = stackPorts({ ...process.env, ...(distributedUp?.env ?? {}) });
  return { gateway1, gateway2, room };
}

/** An internal call to the running stack's room service, signed as a service's (the stack's .run/service-secret). */
export function roomInternalCall(path: string, body: unknown): Promise<unknown> {
  const runDir = distributedUp?.runDir ?? process.env.EPHEMERA_RUN_DIR ?? join(ROOT, 'deploy', 'local', '.run');
  const secret = readFileSync(join(runDir, 'service-secret'), 'utf8').trim();
  return serviceClient(
    `http://127.0.0.1:${internalPortOf(distributedPorts().room)}`,
    serviceCredential('bench', secret),
  )(path, body);
}

/** Runs deploy/local/down.sh if the bench ran up.sh. */
export async function shutdownDistributed(): Promise<void> {
  const up = distributedUp;
  distributedUp = null;
  if (!up?.ranUp) return;
  if (!existsSync(DOWN)) return console.log('  deploy/local/down.sh does not exist: stop the stack yourself');
  console.log('  stopping the distributed stack: bash deploy/local/down.sh');
  await runScript(DOWN, 180, null, up.env);
  if (up.env.EPHEMERA_RUN_DIR) rmSync(up.runDir, { recursive: true, force: true });
}

export function startTarget(name: TargetName, cfg: Config): Promise<RunningTarget> {
  if (name === 'b0' || name === 'b1') return startBaseline(name, cfg);
  if (name === 'b1-ingress') return startB1BehindIngress(cfg);
  if (name === 'b1-l4') return startB1BehindIngress(cfg, true);
  if (name === 'embedded') return startEmbedded(cfg);
  return startDistributed(cfg, name === 'distributed-l4');
}
