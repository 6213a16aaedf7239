/**
 * `npm run bench`: runs the W3 sweep (load-tests/run.ts) exactly as before, as a child process with the same
 * arguments, environment and output, then, only when asked (`--k6` or BENCH_K6=1), the k6 scenarios (run.ts here).
 *   --k6 / BENCH_K6=1                 run them after W3 (also after `--workload=w2`)
 *   --k6-workloads= / BENCH_K6_WORKLOADS   default w1,w2,w3,w4,w5,w6
 *   --k6-targets= / BENCH_K6_TARGETS       default: the W3 run's app targets (embedded, distributed) in its order
 *   --engines= / BENCH_ENGINES         the gateway's websocket engine for the product and B1 alike: auto (default:
 *                                     what the gateway picks here), uws, node, or both (each that loads here, one
 *                                     W3 run per engine); every run prints the Node line and the engine it measured
 * W3's exit code is this command's (the worst of its runs); the k6 step never fails it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../lib/processes.ts';
import { chooseEngine, type EngineChoice } from '@ephemera/gateway/src/engine/index.ts';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
const value = (name: string) => {
  const f = flag(name);
  return f && f.includes('=') ? f.slice(f.indexOf('=') + 1) : undefined;
};
const k6 = flag('k6') ? value('k6') !== '0' : process.env.BENCH_K6 === '1';
const w3Args = argv.filter((a) => !/^--(k6(-|=|$)|engines=)/.test(a));

let current: ChildProcess | null = null;
function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = (current = spawn(process.execPath, args, {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    }));
    child.on('exit', (code, signal) => {
      current = null;
      resolve(code ?? (signal ? 130 : 1));
    });
  });
}
// A signal goes on to the running child (which cleans up: its servers, the stack); this process waits for it.
// Ctrl-C reaches the child twice (terminal + here): its handler acts on the first only.
let interrupted = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.on(sig, () => {
    interrupted = true;
    current?.kill(sig);
  });

// The product's gateway and B1 run on the same engine (GATEWAY_ENGINE, which both read) and the same Node line.
const asked = (value('engines') ?? process.env.BENCH_ENGINES ?? process.env.GATEWAY_ENGINE ?? 'auto')
  .split(',')
  .map((e) => e.trim());
const choices: EngineChoice[] = asked.includes('both') ? ['uws', 'node'] : (asked as EngineChoice[]);
let w3 = 0;
for (const wanted of choices) {
  let picked: ReturnType<typeof chooseEngine>;
  try {
    picked = chooseEngine(wanted);
  } catch (err) {
    console.log(`\n==== engine ${wanted}: not measured here (${(err as Error).message})`);
    continue;
  }
  console.log(
    `\n==== W3 on Node ${process.versions.node}, gateway engine ${picked.engine.name} for the product and B1 (${picked.why})`,
  );
  const code = await run(['--import', 'tsx', join(ROOT, 'load-tests', 'run.ts'), ...w3Args], {
    GATEWAY_ENGINE: picked.engine.name,
  });
  w3 = Math.max(w3, code);
  if (code === 130 || interrupted) break;
}
if (k6 && w3 !== 130 && !interrupted) {
  // the W3 run's targets, as run.ts reads them (flag, then env, then its default), keeping the app ones
  const w3Targets = (
    w3Args.find((a) => a.startsWith('--targets='))?.slice(10) ??
    process.env.BENCH_TARGETS ??
    'b0,b1,embedded,distributed'
  )
    .split(',')
    .filter(
      (t) =>
        (t === 'embedded' || t === 'distributed') && !(t === 'distributed' && process.env.BENCH_DISTRIBUTED === '0'),
    );
  const targets = value('k6-targets') ?? process.env.BENCH_K6_TARGETS ?? (w3Targets.join(',') || 'embedded');
  const workloads = value('k6-workloads') ?? process.env.BENCH_K6_WORKLOADS;
  console.log(
    `\n==== k6 scenarios (--k6 / BENCH_K6=1): targets ${targets}${workloads ? `, workloads ${workloads}` : ''}`,
  );
  const code = await run([
    '--import',
    'tsx',
    join(ROOT, 'load-tests', 'k6', 'run.ts'),
    `--target=${targets}`,
    ...(workloads ? [`--workloads=${workloads}`] : []),
  ]);
  if (code !== 0) console.log(`k6 scenarios: exited with ${code} (the W3 figures above stand)`);
}
process.exit(w3);
