/**
 * A real SMTP server for the sign-in tests: Mailpit (built by deploy/ops/install-tools.sh mailpit, cached in
 * deploy/local/.tools) on free loopback ports. Tests read what the service mailed through Mailpit's HTTP API.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '@ephemera/platform';

const repo = path.resolve(import.meta.dirname, '..', '..');
const tools = process.env.EPHEMERA_TOOLS ?? path.join(repo, 'deploy', 'local', '.tools');

export interface Mailpit {
  smtpUrl: string;
  apiUrl: string;
  /** the newest message to `to` received after `since` (waits up to timeoutMs) */
  latestTo(
    to: string,
    opts?: { since?: number; timeoutMs?: number },
  ): Promise<{ subject: string; text: string; received: number }>;
  /** how many messages `to` has received */
  countTo(to: string): Promise<number>;
  /** every message to `to`, newest first (subject and text) */
  messagesTo(to: string): Promise<{ subject: string; text: string }[]>;
  /**
   * Started with { chaos: true } only: every recipient refused with a 451 (SMTP failure tests) until called with false.
   * Mailpit's chaos triggers: https://mailpit.axllent.org/docs/integration/chaos/
   */
  refuseRecipients(on: boolean): Promise<void>;
  stop(): Promise<void>;
}

export async function startMailpit(opts: { chaos?: boolean } = {}): Promise<Mailpit> {
  const bin = path.join(tools, 'bin', 'mailpit');
  if (!fs.existsSync(bin))
    execFileSync('bash', [path.join(repo, 'deploy', 'ops', 'install-tools.sh'), 'mailpit'], { stdio: 'inherit' });
  const [smtp, http] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(
    bin,
    [
      '--smtp',
      `127.0.0.1:${smtp}`,
      '--listen',
      `127.0.0.1:${http}`,
      '--quiet',
      '--disable-version-check',
      ...(opts.chaos ? ['--enable-chaos'] : []),
    ],
    { stdio: 'ignore' },
  );
  const apiUrl = `http://127.0.0.1:${http}`;
  const end = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`${apiUrl}/api/v1/messages?limit=1`)).ok) break;
    } catch {
      /* starting */
    }
    if (Date.now() > end || child.exitCode !== null) throw new Error('mailpit did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const search = async (to: string) => {
    const res = await fetch(`${apiUrl}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}&limit=50`);
    const body = (await res.json()) as { messages: { ID: string; Subject: string; Created: string }[] };
    return body.messages ?? [];
  };
  return {
    smtpUrl: `smtp://127.0.0.1:${smtp}`,
    apiUrl,
    async latestTo(to, opts = {}) {
      const until = Date.now() + (opts.timeoutMs ?? 10_000);
      for (;;) {
        const found = (await search(to)).filter((m) => Date.parse(m.Created) >= (opts.since ?? 0) - 1000);
        if (found.length > 0) {
          const newest = found.sort((a, b) => Date.parse(b.Created) - Date.parse(a.Created))[0]!;
          const full = (await (await fetch(`${apiUrl}/api/v1/message/${newest.ID}`)).json()) as {
            Subject: string;
            Text: string;
          };
          return { subject: full.Subject, text: full.Text, received: Date.parse(newest.Created) };
        }
        if (Date.now() > until) throw new Error(`no mail to ${to}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async countTo(to) {
      return (await search(to)).length;
    },
    async messagesTo(to) {
      const found = (await search(to)).sort((a, b) => Date.parse(b.Created) - Date.parse(a.Created));
      return Promise.all(
        found.map(async (m) => {
          const full = (await (await fetch(`${apiUrl}/api/v1/message/${m.ID}`)).json()) as {
            Subject: string;
            Text: string;
          };
          return { subject: full.Subject, text: full.Text };
        }),
      );
    },
    async refuseRecipients(on) {
      const res = await fetch(`${apiUrl}/api/v1/chaos`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(on ? { Recipient: { ErrorCode: 451, Probability: 100 } } : {}),
      });
      if (!res.ok) throw new Error(`mailpit chaos: ${res.status} ${await res.text()} (start it with { chaos: true })`);
    },
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
