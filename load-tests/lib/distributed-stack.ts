/**
 * The distributed target: the stack started once per run through deploy/local/up.sh (its own run directory and
 * ports unless BENCH_STACK_ISOLATE=0) or one already running (BENCH_DISTRIBUTED_ORIGIN), reached through its HTTP
 * ingress or its layer-4 entry, its service processes watched for CPU time; down.sh at the end of the run. The
 * calls bench reaches its gateway replicas and its room service directly.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readProcStat, type Watched } from './stats.ts';
import { STACK_PORTS, internalPortOf, metricsPortOf, stackPorts } from '../../deploy/local/ports.ts';
import { serviceClient, serviceCredential } from '../../services/platform/src/index.ts';
import { assertLocal, type Config } from './config.ts';
import { NotRun, type RunningTarget } from './running-target.ts';
import { canListen, ROOT, runScript, waitHttp } from './processes.ts';

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
export async function startDistributed(cfg: Config, layer4 = false): Promise<RunningTarget> {
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
