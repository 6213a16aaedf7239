/**
 * The unit project (vitest.config.ts) starts nothing: no PostgreSQL, Redis or Kafka (test/global-setup.ts is not
 * its setup) and no program but node and openssl (test/unit-setup.ts). A file listed there that reaches for a shared
 * server or starts one stops at once with a message naming the project it belongs in.
 */
import { exec, execFile, execSync, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from './helpers/db.ts';
import { kafkaBrokers, sharedInfra } from './helpers/infra.ts';

const NEEDS_SHARED_SERVERS =
  /needs the shared PostgreSQL, Redis and Kafka \((\w+)\), which the unit project does not start: .*integration project/;

describe('a unit-project file that asks for a shared server', () => {
  it('gets an error naming the server and the project it needs', () => {
    for (const key of ['pgUrl', 'redisUrl', 'kafkaBrokers', 'infraDataDir'] as const) {
      expect(() => sharedInfra(key)).toThrow(NEEDS_SHARED_SERVERS);
    }
    expect(() => kafkaBrokers()).toThrow(/\(kafkaBrokers\)/);
  });

  it('gets that error from the test helpers before any connection is tried', async () => {
    await expect(createTestDatabase()).rejects.toThrow(/\(pgUrl\)/);
  });
});

describe('a unit-project file that starts a program', () => {
  const refused = (program: string) => new RegExp(`started "${program}" .*runs no program but .*integration project`);

  it('is stopped when the program is a server or a tool, however it is started', async () => {
    // paths, not bare names: the dependency check (knip) reads a bare program name in a call as a binary to provide
    expect(() => spawn('/usr/bin/redis-server', ['--version'])).toThrow(refused('redis-server'));
    expect(() => spawn('/usr/lib/postgresql/15/bin/postgres', ['--version'])).toThrow(refused('postgres'));
    expect(() => spawnSync('setpriv', ['--', 'java', '-version'])).toThrow(refused('setpriv'));
    expect(() => spawn('nginx -v', { shell: true })).toThrow(refused('nginx'));
    expect(() => execSync('/usr/bin/chromium --version')).toThrow(refused('chromium'));
    const tool = (name: string) => path.join(import.meta.dirname, '..', 'deploy', 'local', '.tools', 'bin', name);
    expect(() => exec(`${tool('helm')} version`, () => {})).toThrow(refused('helm'));
    await expect(promisify(execFile)(tool('kubeconform'), ['-v'])).rejects.toThrow(refused('kubeconform'));
  });

  it('runs node and openssl as before', async () => {
    expect(spawnSync(process.execPath, ['-e', 'process.stdout.write("ran")']).stdout.toString()).toBe('ran');
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['-e', 'process.stdout.write("ran")']);
    expect({ stdout, stderr }).toEqual({ stdout: 'ran', stderr: '' });
    expect(execSync('openssl version').toString()).toMatch(/SSL/);
  });
});
