/** The orchestrator's side of the generator worker: spawn (pinned to core 1), setup, steps, close. */
import type { ChildProcess } from 'node:child_process';
import { spawnNode } from '../lib/processes.ts';
import type { Config } from '../lib/config.ts';
import type { FromWorker, SetupCmd, StepCmd, StepResult, TargetSpec, ToWorker } from './protocol.ts';

export class Generator {
  private listeners = new Set<(m: FromWorker) => void>();
  private exited: string | null = null;
  private errTail: string[] = [];

  private constructor(readonly child: ChildProcess) {
    child.on('message', (m: FromWorker) => {
      for (const l of [...this.listeners]) l(m);
    });
    child.stderr?.on('data', (d: Buffer) => {
      process.stderr.write(`  [generator] ${d}`);
      this.errTail.push(d.toString());
      if (this.errTail.length > 20) this.errTail.shift();
    });
    child.stdout?.on('data', (d: Buffer) => process.stdout.write(`  [generator] ${d}`));
    child.on('exit', (code, sig) => {
      this.exited = `generator exited (${code ?? sig}) ${this.errTail.join('').slice(-800)}`;
      for (const l of [...this.listeners]) l({ type: 'error', message: this.exited });
    });
  }

  static start(cfg: Config): Generator {
    const args = [
      ...(cfg.client === 'undici' ? ['--experimental-websocket', '--no-warnings'] : []),
      '--import',
      'tsx',
      'load-tests/generator/worker.ts',
    ];
    return new Generator(spawnNode(args, { core: cfg.pin ? 1 : null, ipc: true }));
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Sends a command and waits for the first message that `pick` accepts (others go to `onOther`). */
  private exchange<T>(
    cmd: ToWorker,
    timeoutMs: number,
    pick: (m: FromWorker) => T | undefined,
    onOther?: (m: FromWorker) => void,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      if (this.exited) return reject(new Error(this.exited));
      const done = (f: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(l);
        f();
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`generator: no answer to ${cmd.type} in ${timeoutMs / 1000} s`))),
        timeoutMs,
      );
      const l = (m: FromWorker) => {
        if (m.type === 'error') return done(() => reject(new Error(m.message)));
        const v = pick(m);
        if (v !== undefined) done(() => resolve(v));
        else onOther?.(m);
      };
      this.listeners.add(l);
      this.child.send(cmd);
    });
  }

  setup(target: TargetSpec, cfg: Config) {
    const cmd: SetupCmd = {
      type: 'setup',
      target,
      connections: cfg.connections,
      senders: cfg.senders,
      sampleEvery: cfg.sampleEvery,
      client: cfg.client,
      connectConcurrency: cfg.connectConcurrency,
      joinWarmupMs: cfg.joinWarmup ? cfg.warmupS * 1000 : 0,
    };
    return this.exchange(cmd, 300000, (m) => (m.type === 'ready' ? m : undefined));
  }

  /** Runs one step; onSteady('start'|'end') fires when the worker opens and closes its steady window. */
  step(cmd: StepCmd, onSteady: (edge: 'start' | 'end') => void): Promise<StepResult> {
    const timeout = cmd.warmupMs + cmd.steadyMs + cmd.drainMaxMs + 60000;
    return this.exchange(
      cmd,
      timeout,
      (m) => (m.type === 'step-result' ? m.result : undefined),
      (m) => {
        if (m.type === 'steady-start') onSteady('start');
        else if (m.type === 'steady-end') onSteady('end');
      },
    );
  }

  async close(): Promise<void> {
    if (!this.exited) {
      try {
        this.child.send({ type: 'close' } satisfies ToWorker);
      } catch {
        /* gone */
      }
      const t0 = Date.now();
      while (this.child.exitCode === null && this.child.signalCode === null && Date.now() - t0 < 5000)
        await new Promise((r) => setTimeout(r, 50));
    }
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
