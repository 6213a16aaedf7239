/**
 * One k6 scenario: the k6 binary (built by deploy/ops/install-tools.sh), the business room W4D needs, and the k6
 * process itself, pinned to core 1, with its own CPU and the server processes' read while it runs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { INTERNAL } from '@ephemera/proto';
import { ROOT } from '../lib/processes.ts';
import { roomInternalCall } from '../lib/distributed-stack.ts';
import { CLK_TCK, cpuDeltaUs, readProcStat, sampleCpu, type Watched } from '../lib/stats.ts';

const HERE = import.meta.dirname;

/** The k6 binary, built by deploy/ops/install-tools.sh k6 when missing (prints nothing when cached). */
export function ensureK6(): string {
  const tools = process.env.EPHEMERA_TOOLS ?? join(ROOT, 'deploy', 'local', '.tools');
  const r = spawnSync('bash', [join(ROOT, 'deploy', 'ops', 'install-tools.sh'), 'k6'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, EPHEMERA_TOOLS: tools },
  });
  const bin = join(tools, 'bin', 'k6');
  if (r.status !== 0 || !existsSync(bin))
    throw new Error(`could not build k6 (deploy/ops/install-tools.sh k6 exited ${r.status})`);
  return bin;
}

/** Scenarios whose sends are timed by the gateways too (their k6 figure is send-to-ack). */
export const SENDING = new Set(['w2', 'w3', 'w4', 'w4d', 'w6']);

/**
 * W4D's room: created over HTTP by its owner, then made business (no member cap) as billing's tier change does:
 * distributed, the room service's internal change-tier signed with the stack's service credential; embedded, the
 * bench entry's loopback port (k6/embedded-tier-entry.ts). Its id and owner token go to the script.
 */
export async function prepareW4d(target: string, origin: string): Promise<Record<string, string>> {
  const res = await fetch(`${origin}/api/workspaces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: `w4d-${Date.now().toString(36)}`, username: 'owner' }),
  });
  if (res.status !== 201) throw new Error(`W4D room: HTTP ${res.status} ${await res.text()}`);
  const created = (await res.json()) as { workspaceId: string; userToken: string };
  if (target === 'distributed') {
    await roomInternalCall(INTERNAL.changeTier, {
      workspaceId: created.workspaceId,
      tier: 'business',
      reason: 'bench',
    });
  } else if (target === 'embedded' && process.env.BENCH_TIER_PORT) {
    const tier = await fetch(`http://127.0.0.1:${process.env.BENCH_TIER_PORT}/business`, {
      method: 'POST',
      body: JSON.stringify({ workspaceId: created.workspaceId }),
    });
    if (!tier.ok) throw new Error(`W4D room: the tier port answered ${tier.status} ${await tier.text()}`);
  } else throw new Error('W4D needs a target this runner starts (embedded or distributed): it makes the room business');
  return { W4D_WORKSPACE: created.workspaceId, W4D_OWNER_TOKEN: created.userToken };
}

/** Runs one script; returns its exit code and the CPU used over the run (% of one core): k6, and each server label. */
export function runK6(
  bin: string,
  script: string,
  env: NodeJS.ProcessEnv,
  pin: boolean,
  watched: Watched[],
): Promise<{ code: number | null; k6Pct: number | null; serverPct: Record<string, number> }> {
  const hasTaskset = spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status === 0;
  const args = ['run', '--no-usage-report', '--quiet', join(HERE, script)];
  const [cmd, argv] = pin && hasTaskset && cpus().length > 1 ? ['taskset', ['-c', '1', bin, ...args]] : [bin, args];
  return new Promise((resolve) => {
    const t0 = Date.now();
    const s0 = sampleCpu(watched);
    let s1 = s0;
    let k6Us = 0;
    let t1 = t0;
    const child = spawn(cmd, argv as string[], {
      cwd: HERE,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    // k6's own CPU, read while it runs (taskset execs k6 in place, so the pid is k6's); the last second is lost
    const poll = setInterval(() => {
      const st = readProcStat(child.pid!);
      if (st) k6Us = (st.cpuTicks * 1e6) / CLK_TCK;
      s1 = sampleCpu(watched);
      t1 = Date.now();
    }, 1000);
    const done = (code: number | null) => {
      clearInterval(poll);
      const ms = Math.max(1, t1 - t0);
      const serverPct = Object.fromEntries(Object.entries(cpuDeltaUs(s0, s1)).map(([k, us]) => [k, us / (ms * 10)]));
      resolve({ code, k6Pct: k6Us ? k6Us / (ms * 10) : null, serverPct });
    };
    child.on('exit', (code) => done(code));
    child.on('error', () => done(-1));
  });
}
