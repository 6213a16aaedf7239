/**
 * Starting and stopping the servers under test: the baselines and the embedded app as child processes pinned to
 * core 0 (processes.ts), B1 behind the distributed stack's own nginx, and the distributed stack itself
 * (distributed-stack.ts). Each running target says which processes to watch for CPU time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processTree } from './stats.ts';
import { startIngress } from '../../deploy/local/ingress.ts';
import { startLayer4 } from '../../deploy/local/layer4.ts';
import type { Config, TargetName } from './config.ts';
import type { TargetSpec } from '../generator/protocol.ts';
import { NotRun, type RunningTarget } from './running-target.ts';
import { freePort, pinned, ROOT, spawnNode, stopProcess, tail, waitHttp } from './processes.ts';
import { startDistributed } from './distributed-stack.ts';

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

async function startEmbedded(cfg: Config): Promise<RunningTarget> {
  // the product's entry (npm start); BENCH_EMBEDDED_ENTRY overrides (the k6 runner sets it for W4D: k6/run.ts)
  const entry = process.env.BENCH_EMBEDDED_ENTRY ?? 'services/embedded/main.ts';
  if (!existsSync(join(ROOT, entry))) throw new NotRun(`no embedded entry point: ${entry} does not exist`);
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

export function startTarget(name: TargetName, cfg: Config): Promise<RunningTarget> {
  if (name === 'b0' || name === 'b1') return startBaseline(name, cfg);
  if (name === 'b1-ingress') return startB1BehindIngress(cfg);
  if (name === 'b1-l4') return startB1BehindIngress(cfg, true);
  if (name === 'embedded') return startEmbedded(cfg);
  return startDistributed(cfg, name === 'distributed-l4');
}
