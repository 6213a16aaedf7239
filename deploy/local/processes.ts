/**
 * The local servers' processes (infra.ts starts Postgres, Redis and Kafka with these): each spawned through
 * `setpriv --pdeathsig KILL`, so the kernel kills it if this process dies without stopping it, and killed on a
 * normal exit too; its output appended to a log file whose tail explains a failed start.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type OsUser = { uid: number; gid: number; name: string };

export function osUser(name: string): OsUser {
  const uid = Number(execFileSync('id', ['-u', name]).toString().trim());
  const gid = Number(execFileSync('id', ['-g', name]).toString().trim());
  return { uid, gid, name };
}

const children = new Set<ChildProcess>();
// Belt and braces beside pdeathsig: on a normal exit of this process, take the children with it.
process.once('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/** Spawn with output appended to logFile; the child dies with this process (PR_SET_PDEATHSIG via setpriv). */
export function launch(cmd: string, args: string[], opts: { logFile: string; user?: OsUser }): ChildProcess {
  fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
  const fd = fs.openSync(opts.logFile, 'a');
  const wrapper = ['--pdeathsig', 'KILL'];
  // setpriv sets pdeathsig after switching user (a uid change clears it), so it holds for the postgres user too.
  if (opts.user) wrapper.push('--reuid', String(opts.user.uid), '--regid', String(opts.user.gid), '--init-groups');
  const child = spawn('setpriv', [...wrapper, '--', cmd, ...args], {
    stdio: ['ignore', fd, fd],
    env: { ...process.env, LC_ALL: 'C.UTF-8' },
  });
  fs.closeSync(fd);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export async function runToEnd(cmd: string, args: string[], opts: { logFile: string; user?: OsUser }): Promise<void> {
  const child = launch(cmd, args, opts);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c));
  });
  if (code !== 0) throw new Error(`${path.basename(cmd)} exited with ${code}:\n${tail(opts.logFile)}`);
}

/** Poll probe until it succeeds; fail fast with the log tail if the server exits or never answers. */
export async function waitUntil(
  child: ChildProcess,
  logFile: string,
  name: string,
  probe: () => Promise<void>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail(logFile)}`);
    }
    try {
      await probe();
      return;
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await stopChild(child, 'SIGKILL');
  throw new Error(`${name} not ready after ${timeoutMs} ms (${String(lastError)}):\n${tail(logFile)}`);
}

export async function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
