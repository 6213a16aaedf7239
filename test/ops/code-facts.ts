/**
 * What the code and the README say about the deployable services, read from the source text, so that the
 * deployment artefacts (docker-compose.yml, the chart, the Dockerfiles, the alerts) can be checked against it:
 * each service's environment variables (the keys of its loadConfig schema in src/main.ts, with the shared
 * commonEnv/kafkaEnv pieces of services/platform/src/config.ts), its default port, the README's Configuration
 * table, and the Prometheus metric names the services export.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const read = (rel: string) => fs.readFileSync(path.join(repo, rel), 'utf8');
export const tools = process.env.EPHEMERA_TOOLS ?? path.join(repo, 'deploy', 'local', '.tools');

/** The deployable Node services: every services/<name>/src/main.ts (platform and embedded are not deployed alone). */
export function deployableServices(): string[] {
  return fs.readdirSync(path.join(repo, 'services'))
    .filter((name) => fs.existsSync(path.join(repo, 'services', name, 'src', 'main.ts')))
    .sort();
}

/** The keys of an object literal `export const <name> = { ... };` in a source text. */
function objectKeys(source: string, name: string): string[] {
  const body = new RegExp(`export const ${name} = \\{([\\s\\S]*?)\\n\\};`).exec(source)?.[1];
  if (!body) throw new Error(`no ${name} in services/platform/src/config.ts`);
  return [...body.matchAll(/^\s+([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]);
}

export interface ServiceConfig { vars: Set<string>; defaultPort: number; defaultMetricsPort?: number }

/** RATE_LIMIT_<NAME> variables every process reads (services/platform/src/rate-limit.ts: camelCase keys). */
export function rateLimitVars(): string[] {
  const file = path.join(repo, 'services', 'platform', 'src', 'rate-limit.ts');
  if (!fs.existsSync(file)) return [];
  const body = /export const RATE_LIMIT_DEFAULTS = \{([\s\S]*?)\n\}/.exec(fs.readFileSync(file, 'utf8'))?.[1] ?? '';
  return [...body.matchAll(/^ {2}([a-z][A-Za-z0-9]*):/gm)].map((m) => `RATE_LIMIT_${m[1].replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`);
}

/** Environment variables each service's main.ts reads, and the PORT default. */
export function serviceConfig(service: string): ServiceConfig {
  const main = read(`services/${service}/src/main.ts`);
  const platform = read('services/platform/src/config.ts');
  const schema = /loadConfig\(z\.object\(\{([\s\S]*?)\}\)\)/.exec(main)?.[1];
  if (!schema) throw new Error(`services/${service}/src/main.ts: no loadConfig(z.object({...}))`);
  const vars = new Set([...schema.matchAll(/(?:^|[\s,{])([A-Z][A-Z0-9_]*):/g)].map((m) => m[1]));
  if (schema.includes('...commonEnv')) objectKeys(platform, 'commonEnv').forEach((v) => vars.add(v));
  if (schema.includes('...kafkaEnv')) objectKeys(platform, 'kafkaEnv').forEach((v) => vars.add(v));
  // Variables read directly from process.env by the service or the shared platform kit (not through loadConfig).
  for (const dir of [`services/${service}/src`, 'services/platform/src']) {
    const grep = run('grep', ['-rhoE', 'process\\.env\\.[A-Z][A-Z0-9_]*', dir, '--include=*.ts']);
    for (const m of grep.out.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) vars.add(m[1]);
  }
  rateLimitVars().forEach((v) => vars.add(v));
  const defaultPort = Number(/\bPORT:\s*port\((\d+)\)/.exec(main)?.[1]);
  if (!defaultPort) throw new Error(`services/${service}/src/main.ts: no PORT: port(<default>)`);
  const metrics = /\bMETRICS_PORT:\s*port\((\d+)\)/.exec(main)?.[1];
  return { vars, defaultPort, defaultMetricsPort: metrics ? Number(metrics) : undefined };
}

/** README "Distributed services" table: service -> variables named in its row, plus the ones every service reads. */
export function readmeConfig(): { perService: Map<string, Set<string>>; everyService: Set<string> } {
  const readme = read('README.md');
  const section = readme.slice(readme.indexOf('Distributed services'));
  const table = section.slice(section.indexOf('\n|'), section.indexOf('\n\n', section.indexOf('\n|')));
  const perService = new Map<string, Set<string>>();
  for (const m of table.matchAll(/^\| (\w[\w-]*) \| (.*) \|$/gm)) {
    if (m[1] !== 'service') perService.set(m[1], new Set([...m[2].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((v) => v[1])));
  }
  const every = /Every service also reads ([^.]*)\./.exec(section)?.[1] ?? '';
  return { perService, everyService: new Set([...every.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((v) => v[1])) };
}

/** Metric names the services define (prom-client constructors) and prom-client's default Node/process metrics. */
export function exportedMetrics(): Set<string> {
  const names = new Set<string>();
  const grep = execFileSync('grep', ['-rhoE', "new (metrics|client|prom)\\.(Counter|Gauge|Histogram|Summary)\\(\\{ *name: *'[a-z_:]+'", 'services', '--include=*.ts'], { cwd: repo, encoding: 'utf8' });
  for (const m of grep.matchAll(/(Counter|Gauge|Histogram|Summary)\(\{ *name: *'([a-z_:]+)'/g)) {
    names.add(m[2]);
    // A histogram is queried through its series: name_bucket, name_count, name_sum.
    if (m[1] === 'Histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(m[2] + suffix);
  }
  const defaults = path.join(repo, 'node_modules', 'prom-client', 'lib', 'metrics');
  for (const file of fs.readdirSync(defaults).filter((f) => f.endsWith('.js'))) {
    for (const m of fs.readFileSync(path.join(defaults, file), 'utf8').matchAll(/'((?:nodejs|process)_[a-z0-9_]+)'/g)) names.add(m[1]);
  }
  return names;
}

/** Run a command, returning its exit code and combined output (never throws on a non-zero exit). */
export function run(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): { code: number; out: string } {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd ?? repo, env: { ...process.env, ...opts.env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
    timeout: opts.timeoutMs ?? 900_000, maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? 1, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}
