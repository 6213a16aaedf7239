/**
 * The processes themselves refuse a bad configuration: `npm start`'s command (from package.json, .env included) and a
 * distributed service's main.ts exit 1 with the refusal, before they open anything.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '..', '..', '..');
const tsx = import.meta.resolve('tsx');

/** Run node with `args` in `cwd`, its environment exactly `env` (plus PATH); the exit code and what it printed. */
function run(args: string[], env: Record<string, string>, cwd = repo): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000); // a process that did not refuse would run on
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** `npm start`'s node command (after the frontend build), with its entry made absolute so it runs from any directory. */
function startCommand(): string[] {
  const script: string = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')).scripts.start;
  const node = script
    .split('&&')
    .map((s) => s.trim())
    .find((s) => s.startsWith('node '));
  expect(node, script).toBeDefined();
  return node!
    .split(/\s+/)
    .slice(1)
    .map((a) => (a === 'tsx' ? tsx : a.endsWith('.ts') ? path.join(repo, a) : a));
}

describe('a process started with a bad value', () => {
  it('npm start exits 1 naming the variable, what it got and what it accepts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-start-'));
    try {
      const r = await run(startCommand(), { DATA_DIR: dataDir, PORT: '0', CALL_RING_TIMEOUT_MS: 'soon' }, dataDir);
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain('Invalid configuration: the process did not start.');
      expect(r.out).toMatch(
        /CALL_RING_TIMEOUT_MS: got "soon", refused .*Accepts: a whole number of milliseconds from 1000 to 600000/,
      );
      expect(r.out).not.toMatch(/\n\s+at /); // the message, not a stack trace
      expect(fs.readdirSync(dataDir)).toEqual([]); // refused before anything was made
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('npm start reads .env from where it runs, and the environment wins over the file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-dotenv-'));
    try {
      fs.writeFileSync(path.join(dir, '.env'), 'TURN_CREDENTIAL_TTL_SECONDS=forever\nCALL_RING_TIMEOUT_MS=soon\n');
      const r = await run(
        startCommand(),
        { DATA_DIR: path.join(dir, 'data'), PORT: '0', CALL_RING_TIMEOUT_MS: '5000' },
        dir,
      );
      expect(r.code, r.out).toBe(1);
      expect(r.out).toMatch(/TURN_CREDENTIAL_TTL_SECONDS: got "forever"/); // from the file
      expect(r.out).not.toContain('CALL_RING_TIMEOUT_MS'); // the environment's 5000, not the file's "soon"
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a distributed service exits 1 naming each problem, and never prints a secret', async () => {
    const r = await run(['--import', tsx, path.join(repo, 'services', 'gateway', 'src', 'main.ts')], {
      SERVICE_SECRET: 'short-service-secret',
      ROOM_URL: 'http://room:10201',
      MESSAGING_URL: 'http://messaging:10202',
      PRESENCE_URL: 'http://presence:10203',
      KAFKA_BROKERS: 'kafka:9092',
      REDIS_URL: 'redis://redis:6379',
      TURN_CREDENTIAL_TTL_SECONDS: '0',
      TURN_SECRET: 'turn-shared-secret-value',
    });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/SERVICE_SECRET: got a value of 20 characters \(a secret: not shown\)/);
    expect(r.out).toMatch(/TURN_CREDENTIAL_TTL_SECONDS: got "0"/);
    expect(r.out).toMatch(
      /TURN_URLS is missing: TURN needs TURN_URLS and TURN_SECRET together, and TURN_SECRET is set/,
    );
    expect(r.out).not.toContain('short-service-secret');
    expect(r.out).not.toContain('turn-shared-secret-value');
  });
});
