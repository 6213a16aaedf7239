/**
 * The import rules of `npm run lint:cycles` (.dependency-cruiser.cjs) fail on what they forbid: the project's config,
 * run by dependency-cruiser on a small tree written here, refuses an import cycle (type-only imports included) and a
 * service's shipped code reaching into another service's src/, and lets through a service's entry, its configuration,
 * clients and HTTP boundary, and tests importing what they test. Every import uses a `.ts` specifier, as the
 * project's do: a cycle found proves they resolve.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const repo = path.join(import.meta.dirname, '..');
const CONFIG = path.join(repo, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(repo, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');

const trees: string[] = [];
afterEach(() => {
  for (const dir of trees.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A tree of files (path -> content) with a tsconfig like the project's, checked with the project's rules. */
async function check(files: Record<string, string>): Promise<{ exitCode: number; output: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rules-'));
  trees.push(dir);
  const tsconfig = {
    compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', allowImportingTsExtensions: true, noEmit: true },
  };
  for (const [file, content] of Object.entries({ 'tsconfig.json': JSON.stringify(tsconfig), ...files })) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  try {
    const args = [DEPCRUISE, '--config', CONFIG, '--progress', 'none', 'services'];
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: dir });
    return { exitCode: 0, output: stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    if (typeof e.code !== 'number') throw err;
    return { exitCode: e.code, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('npm run lint:cycles', () => {
  it('is part of npm run lint and checks the project with this config', () => {
    const scripts = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')).scripts as Record<
      string,
      string
    >;
    expect(scripts.lint).toMatch(/&& npm run lint:cycles/);
    expect(scripts['lint:cycles']).toMatch(
      /^depcruise --config \.dependency-cruiser\.cjs .* proto services frontend\/src /,
    );
  });

  it('fails on an import cycle, naming the rule and the files', async () => {
    const { exitCode, output } = await check({
      'services/alpha/src/rooms.ts': "import { rule } from './rules.ts';\nexport const rooms = () => rule();\n",
      // type-only: still a cycle
      'services/alpha/src/rules.ts':
        "import type { rooms } from './rooms.ts';\nexport const rule = (): ReturnType<typeof rooms> | 1 => 1;\n",
    });
    expect(exitCode).not.toBe(0);
    expect(output).toMatch(/no-circular: services\/alpha\/src\/(rooms|rules)\.ts/);
    expect(output).toContain('services/alpha/src/rooms.ts');
    expect(output).toContain('services/alpha/src/rules.ts');
  });

  it("fails on a service's code importing another service's internals, naming both files", async () => {
    const { exitCode, output } = await check({
      'services/alpha/src/repository.ts': 'export const rows = 1;\n',
      'services/beta/src/server.ts': "import { rows } from '../../alpha/src/repository.ts';\nexport const n = rows;\n",
    });
    expect(exitCode).not.toBe(0);
    expect(output).toContain(
      'no-other-service-internals: services/beta/src/server.ts → services/alpha/src/repository.ts',
    );
  });

  it("passes a service's entry, configuration, clients and HTTP boundary, and tests importing internals", async () => {
    const { exitCode, output } = await check({
      'services/alpha/src/repository.ts': 'export const rows = 1;\n',
      'services/alpha/src/index.ts': "export { rows } from './repository.ts';\n",
      'services/alpha/src/config.ts': 'export const alphaEnv = {};\n',
      'services/alpha/src/client.ts': 'export class AlphaClient {}\n',
      'services/alpha/src/keys-http.ts': 'export const keyClient = () => 1;\n',
      'services/platform/src/config-vars.ts': 'export const port = 1;\n',
      'services/beta/src/server.ts': [
        "import { rows } from '../../alpha/src/index.ts';",
        "import { alphaEnv } from '../../alpha/src/config.ts';",
        "import { AlphaClient } from '../../alpha/src/client.ts';",
        "import { keyClient } from '../../alpha/src/keys-http.ts';",
        "import { port } from '../../platform/src/config-vars.ts';",
        'export const all = [rows, alphaEnv, AlphaClient, keyClient, port];',
      ].join('\n'),
      'services/beta/test/server.test.ts':
        "import { rows } from '../../alpha/src/repository.ts';\nexport const n = rows;\n",
    });
    expect(output).toContain('no dependency violations found');
    expect(exitCode).toBe(0);
  });
});
