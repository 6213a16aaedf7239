/**
 * A TURN server for the calls browser test: pion/turn (deploy/ops/pion-turn) checking TURN REST credentials against
 * a shared secret, the way coturn's use-auth-secret does in production (docs/deployment.md "TURN for calls"). Built
 * by deploy/ops/install-tools.sh (`turn`, pinned, from the Go module proxy, cached in deploy/local/.tools as
 * pion-turn). Listens on UDP 127.0.0.1:<port> and relays from 127.0.0.1.
 */
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../../services/platform/src/net.ts';
import { toolsDir } from './config.ts';

const repo = path.resolve(import.meta.dirname, '..', '..');

export interface TurnServer {
  url: string;
  secret: string;
  stop(): Promise<void>;
}

export function pionTurnBinary(): string {
  const tools = toolsDir();
  const bin = path.join(tools, 'bin', 'pion-turn');
  if (!fs.existsSync(bin))
    execFileSync('bash', [path.join(repo, 'deploy', 'ops', 'install-tools.sh'), 'turn'], { stdio: 'inherit' });
  return bin;
}

export async function startPionTurn(secret: string): Promise<TurnServer> {
  const bin = pionTurnBinary();
  const port = await freePort(); // free for TCP; the UDP port of the same number is free on a test machine as well
  const child = spawn(bin, ['-public-ip', '127.0.0.1', '-port', String(port), '-auth-secret', secret], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4000);
  });
  // UDP gives no "listening" to probe: the server binds at once or exits; give it a moment to do either.
  await new Promise((r) => setTimeout(r, 500));
  if (child.exitCode !== null) throw new Error(`pion-turn exited with ${child.exitCode}: ${stderr}`);
  return {
    url: `turn:127.0.0.1:${port}?transport=udp`,
    secret,
    async stop() {
      if (child.exitCode === null)
        await new Promise((r) => {
          child.once('exit', r);
          child.kill('SIGTERM');
          setTimeout(r, 5000);
        });
    },
  };
}
