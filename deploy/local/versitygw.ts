/**
 * The S3-compatible server of the local stack and the tests: versitygw (S3 over a folder), built by
 * deploy/ops/install-tools.sh (`versitygw`, pinned, from the Go module proxy, cached in deploy/local/.tools).
 * Tests start it on a free port with a temporary directory (removed by stop()); the local stack gives it a port and
 * a directory under its data.
 */
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../services/platform/src/net.ts';
import { toolsDir } from './config.ts';

const repo = path.resolve(import.meta.dirname, '..', '..');

export interface S3Server {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  dir: string;
  stop(): Promise<void>;
}

export function versitygwBinary(): string {
  const tools = toolsDir();
  const bin = path.join(tools, 'bin', 'versitygw');
  // Builds it the first time (about 3 minutes), reuses it after: the same script npm test runs first.
  if (!fs.existsSync(bin))
    execFileSync('bash', [path.join(repo, 'deploy', 'ops', 'install-tools.sh'), 'versitygw'], { stdio: 'inherit' });
  return bin;
}

export async function startVersitygw(
  opts: { dir?: string; port?: number; accessKeyId?: string; secretAccessKey?: string } = {},
): Promise<S3Server> {
  const bin = versitygwBinary();
  const temporary = !opts.dir;
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-s3-'));
  fs.mkdirSync(dir, { recursive: true });
  const port = opts.port ?? (await freePort());
  const accessKeyId = opts.accessKeyId ?? `test${randomBytes(4).toString('hex')}`;
  const secretAccessKey = opts.secretAccessKey ?? randomBytes(16).toString('hex');
  const child = spawn(
    bin,
    ['--access', accessKeyId, '--secret', secretAccessKey, '--port', `127.0.0.1:${port}`, 'posix', dir],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const end = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`versitygw exited with ${child.exitCode}: ${stderr}`);
    // Any HTTP answer (403 for an unsigned request) means it is listening.
    if (
      await fetch(endpoint).then(
        () => true,
        () => false,
      )
    )
      break;
    if (Date.now() > end) {
      child.kill('SIGKILL');
      throw new Error(`versitygw did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    endpoint,
    accessKeyId,
    secretAccessKey,
    region: 'us-east-1',
    dir,
    async stop() {
      if (child.exitCode === null)
        await new Promise((r) => {
          child.once('exit', r);
          child.kill('SIGTERM');
          setTimeout(r, 5000);
        });
      if (temporary) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
