/**
 * What the code says about the deployable services, so that the deployment artefacts (docker-compose.yml, the
 * chart, the Dockerfiles, the alerts) can be checked against it: each service's environment variables (its
 * configuration schema, src/config.ts, the one place a service reads its environment), its default ports, and the
 * Prometheus metric names the services export.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { defaultOf, metaOf, type ConfigSpec } from '../../services/platform/src/config.ts';
import { rateLimitEnv } from '../../services/platform/src/config-vars.ts';
import { PROCESS_CONFIGS } from '../../deploy/config-reference.ts';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const read = (rel: string) => fs.readFileSync(path.join(repo, rel), 'utf8');
export const tools = process.env.EPHEMERA_TOOLS ?? path.join(repo, 'deploy', 'local', '.tools');

/** The deployable Node services: every services/<name>/src/main.ts (platform and embedded are not deployed alone). */
export function deployableServices(): string[] {
  return fs
    .readdirSync(path.join(repo, 'services'))
    .filter((name) => fs.existsSync(path.join(repo, 'services', name, 'src', 'main.ts')))
    .sort();
}

export interface ServiceConfig {
  vars: Set<string>;
  defaultPort: number;
  defaultMetricsPort?: number;
  spec: ConfigSpec;
}

/** RATE_LIMIT_<NAME> variables every process reads (services/platform/src/config-rate-limits.ts rateLimitEnv). */
export function rateLimitVars(): string[] {
  return Object.keys(rateLimitEnv);
}

/** Environment variables a service's process reads (its configuration schema, src/config.ts), and its port defaults. */
export function serviceConfig(service: string): ServiceConfig {
  const spec = PROCESS_CONFIGS.find((p) => p.process === service);
  if (!spec)
    throw new Error(`services/${service}: no configuration schema in deploy/config-reference.ts PROCESS_CONFIGS`);
  const shape = spec.schema.shape as Record<string, z.ZodType>;
  const portDefault = (name: string) => (shape[name] ? Number(defaultOf(shape[name])) : undefined);
  const defaultPort = portDefault('PORT');
  if (!defaultPort) throw new Error(`services/${service}: PORT has no default`);
  return { vars: new Set(Object.keys(shape)), defaultPort, defaultMetricsPort: portDefault('METRICS_PORT'), spec };
}

/** Variables a deployment leaves unset (tests and benchmarks only: the chart does not wire them). */
export function testOnlyVars(service: string): Set<string> {
  const shape = serviceConfig(service).spec.schema.shape as Record<string, z.ZodType>;
  return new Set(
    Object.entries(shape)
      .filter(([, schema]) => metaOf(schema)?.testOnly)
      .map(([name]) => name),
  );
}

/** Metric names the services define (prom-client constructors) and prom-client's default Node/process metrics. */
export function exportedMetrics(): Set<string> {
  const names = new Set<string>();
  // Read whole files: a constructor's object may start on the next line (Prettier's layout).
  const sources = fs
    .readdirSync(path.join(repo, 'services'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.split(path.sep).includes('node_modules'))
    .map((f) => fs.readFileSync(path.join(repo, 'services', f), 'utf8'))
    .join('\n');
  for (const m of sources.matchAll(
    /new (?:metrics|client|prom)\.(Counter|Gauge|Histogram|Summary)\(\{\s*name:\s*'([a-z_:]+)'/g,
  )) {
    names.add(m[2]);
    // A histogram is queried through its series: name_bucket, name_count, name_sum.
    if (m[1] === 'Histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(m[2] + suffix);
  }
  const defaults = path.join(repo, 'node_modules', 'prom-client', 'lib', 'metrics');
  for (const file of fs.readdirSync(defaults).filter((f) => f.endsWith('.js'))) {
    for (const m of fs.readFileSync(path.join(defaults, file), 'utf8').matchAll(/'((?:nodejs|process)_[a-z0-9_]+)'/g))
      names.add(m[1]);
  }
  return names;
}

/** Run a command, returning its exit code and combined output (never throws on a non-zero exit). */
export function run(
  cmd: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): { code: number; out: string } {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd ?? repo,
    env: { ...process.env, ...opts.env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: opts.timeoutMs ?? 900_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? 1, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}
