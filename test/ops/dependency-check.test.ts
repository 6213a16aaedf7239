/**
 * `npm run lint`'s dependency check (the `lint:deps` script, knip with knip.jsonc) fails on each kind of dependency
 * fault it is there for. It runs on a copy of the working tree (the packages installed here are linked in, the
 * workspaces' own links point into the copy), once as it is and once with four faults put in its package.json files:
 *  - undeclared: services/room no longer declares express, which its HTTP routes import, and services/admin-analytics
 *    no longer declares prom-client, which one of its tests imports (only the first pass, over every file, sees tests);
 *  - unused: services/platform declares @opentelemetry/core, which nothing imports;
 *  - misplaced build tool: vite is under the frontend's dependencies, though only vite.config.ts (not the bundle) uses it;
 *  - misplaced runtime import: services/presence has zod only as a devDependency, though its shipped code imports it.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '..', '..');

type Manifest = {
  name: string;
  workspaces?: string[];
  scripts: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const readManifest = (dir: string, ws = '.'): Manifest =>
  JSON.parse(fs.readFileSync(path.join(dir, ws, 'package.json'), 'utf8')) as Manifest;
const writeManifest = (dir: string, ws: string, m: Manifest) =>
  fs.writeFileSync(path.join(dir, ws, 'package.json'), JSON.stringify(m, null, 2) + '\n');

/** The tracked and not-ignored files of the working tree, with node_modules linked: the workspaces to the copy's own. */
function copyTree(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-deps-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const f of files) {
    const from = path.join(REPO, f);
    if (!fs.existsSync(from) || !fs.statSync(from).isFile()) continue; // deleted in the working tree
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, f));
  }
  const root = readManifest(dir);
  const workspaces = root.workspaces ?? [];
  const own = new Map(workspaces.map((ws) => [readManifest(dir, ws).name, ws]));
  fs.mkdirSync(path.join(dir, 'node_modules'));
  for (const entry of fs.readdirSync(path.join(REPO, 'node_modules'))) {
    const scoped = entry.startsWith('@')
      ? fs.readdirSync(path.join(REPO, 'node_modules', entry)).map((n) => `${entry}/${n}`)
      : [entry];
    for (const name of scoped) {
      const to = path.join(dir, 'node_modules', name);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      const ws = own.get(name);
      fs.symlinkSync(ws ? path.join(dir, ws) : path.join(REPO, 'node_modules', name), to);
    }
  }
  for (const ws of workspaces) {
    const nested = path.join(REPO, ws, 'node_modules');
    if (fs.existsSync(nested)) fs.symlinkSync(nested, path.join(dir, ws, 'node_modules'));
  }
  return dir;
}

/** Each command of the lint:deps script in `dir`, as `npm run lint:deps` would run them (all, not stopping at a failure). */
function runDependencyCheck(dir: string): { status: number | null; output: string }[] {
  const script = readManifest(dir).scripts['lint:deps']!;
  return script.split('&&').map((command) => {
    const r = spawnSync('sh', ['-c', command.trim()], {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${path.join(dir, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`,
        NO_COLOR: '1',
      },
      timeout: 150_000,
    });
    return { status: r.status, output: `${r.stdout}${r.stderr}` };
  });
}

const FAULTS = {
  undeclared: /^express\s+services\/room\/src\/\S+\.ts/m,
  undeclaredInTest: /^prom-client\s+services\/admin-analytics\/test\/\S+\.ts/m,
  unused: /^@opentelemetry\/core\s+services\/platform\/package\.json/m,
  buildTool: /^vite\s+frontend\/package\.json/m,
  devOnly: /^zod\s+services\/presence\/src\/\S+\.ts/m,
};

describe('npm run lint: the dependency check', () => {
  let dir = '';
  let clean: { status: number | null; output: string }[] = [];
  let faulty: { status: number | null; output: string }[] = [];

  beforeAll(() => {
    dir = copyTree();
    clean = runDependencyCheck(dir);

    const room = readManifest(dir, 'services/room');
    delete room.dependencies!.express;
    writeManifest(dir, 'services/room', room);

    const platform = readManifest(dir, 'services/platform');
    platform.dependencies!['@opentelemetry/core'] = '^2.0.0';
    writeManifest(dir, 'services/platform', platform);

    const frontend = readManifest(dir, 'frontend');
    frontend.dependencies!.vite = frontend.devDependencies!.vite!;
    delete frontend.devDependencies!.vite;
    writeManifest(dir, 'frontend', frontend);

    const presence = readManifest(dir, 'services/presence');
    presence.devDependencies = { ...presence.devDependencies, zod: presence.dependencies!.zod! };
    delete presence.dependencies!.zod;
    writeManifest(dir, 'services/presence', presence);

    const admin = readManifest(dir, 'services/admin-analytics');
    delete admin.devDependencies!['prom-client'];
    writeManifest(dir, 'services/admin-analytics', admin);

    faulty = runDependencyCheck(dir);
  }, 600_000);

  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is part of npm run lint', () => {
    expect(readManifest(REPO).scripts.lint).toMatch(/npm run lint:deps/);
    expect(clean.length).toBe(2); // every file, then what ships
    for (const r of [...clean, ...faulty]) expect(r.status, r.output).not.toBeNull(); // ran to the end, not killed
  });

  it('names none of the faults on the tree as it is', () => {
    const all = clean.map((r) => r.output).join('\n');
    for (const fault of Object.values(FAULTS)) expect(all).not.toMatch(fault);
  });

  it('fails on an import the workspace does not declare, and on a declared dependency nothing imports', () => {
    const [everyFile] = faulty;
    expect(everyFile!.status).not.toBe(0);
    expect(everyFile!.output).toMatch(/Unlisted dependencies/);
    expect(everyFile!.output).toMatch(FAULTS.undeclared);
    expect(everyFile!.output).toMatch(FAULTS.undeclaredInTest);
    expect(everyFile!.output).toMatch(/Unused dependencies/);
    expect(everyFile!.output).toMatch(FAULTS.unused);
  });

  it('fails on a build tool among the dependencies of what ships, and on shipped code importing a devDependency', () => {
    const [, shipped] = faulty;
    expect(shipped!.status).not.toBe(0);
    expect(shipped!.output).toMatch(FAULTS.buildTool);
    expect(shipped!.output).toMatch(FAULTS.devOnly);
  });
});
