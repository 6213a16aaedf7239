/**
 * Stripe's own mock API server for the payment tests: stripe-mock (built by deploy/ops/install-tools.sh
 * stripe-mock, cached in deploy/local/.tools) on a free loopback port. The billing service's Stripe adapter talks to
 * it through the official SDK (STRIPE_API_BASE). It is stateless: it answers fixtures, not what was posted
 * (test/payments/provider-state.ts records the state the tests need).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '@ephemera/platform';

const repo = path.resolve(import.meta.dirname, '..', '..');
const tools = process.env.EPHEMERA_TOOLS ?? path.join(repo, 'deploy', 'local', '.tools');

/** any sk_test_ key works against stripe-mock; it only checks that one is sent */
export const STRIPE_MOCK_KEY = 'sk_test_ephemera';

export interface StripeMock {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startStripeMock(): Promise<StripeMock> {
  const bin = path.join(tools, 'bin', 'stripe-mock');
  if (!fs.existsSync(bin))
    execFileSync('bash', [path.join(repo, 'deploy', 'ops', 'install-tools.sh'), 'stripe-mock'], { stdio: 'inherit' });
  const port = await freePort();
  // -http-addr binds loopback only (-http-port would bind every interface). stripe-mock also opens its HTTPS
  // listener, on the fixed 12112 unless told otherwise: two suites starting it at once collided there and one
  // stripe-mock exited, so HTTPS gets a port the system chooses.
  const child: ChildProcess = spawn(bin, ['-http-addr', `127.0.0.1:${port}`, '-https-addr', '127.0.0.1:'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-2000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/v1/customers`, { headers: { authorization: `Bearer ${STRIPE_MOCK_KEY}` } })).ok) break;
    } catch {
      /* starting */
    }
    if (Date.now() > end || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(
        `stripe-mock did not start (exit code ${child.exitCode}): ${output.trim().split('\n').slice(-3).join(' | ')}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
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
