/**
 * The configuration has one source: each process's schema. The reference page and .env.example are what the
 * schemas render, and nothing in the product reads an environment variable outside its configuration modules.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE_FILES, renderConfigurationDoc, renderEnvExample, variables } from '../../deploy/config-reference.ts';
import { repo } from './code-facts.ts';

/** The one place each process reads its environment (and the shared declarations they are built from). */
const CONFIG_MODULES = new Set([
  'services/platform/src/config.ts',
  'services/platform/src/config-vars.ts',
  'services/platform/src/config-rate-limits.ts',
  'services/embedded/config.ts',
  'deploy/local/config.ts',
  ...['room', 'messaging', 'presence', 'billing', 'admin-analytics', 'gateway'].map(
    (s) => `services/${s}/src/config.ts`,
  ),
]);

/** Readers that cannot use a schema, and why. */
const OTHER_READERS = new Set([
  // the image's HEALTHCHECK: plain node without the TypeScript loader, reading the PORT the service itself validated
  'deploy/docker/healthcheck.mjs',
]);

/** The product's source: every service, the protocol package, the frontend's build config, the deployment scripts. */
function productSources(): string[] {
  const files: string[] = [];
  const walk = (rel: string) => {
    const abs = path.join(repo, rel);
    if (!fs.existsSync(abs)) return;
    if (fs.statSync(abs).isFile()) {
      files.push(rel);
      return;
    }
    for (const entry of fs.readdirSync(abs)) {
      if (['node_modules', 'test', 'dist', '.tools', '.run', 'ops'].includes(entry)) continue; // deploy/ops: CI's own tooling
      const child = path.join(rel, entry);
      if (fs.statSync(path.join(repo, child)).isDirectory()) walk(child);
      else if (/\.(ts|tsx|mjs)$/.test(entry) && !/\.test\.tsx?$/.test(entry)) files.push(child);
    }
  };
  for (const root of ['services', 'proto/src', 'frontend/vite.config.ts', 'deploy']) walk(root);
  return files;
}

describe('the configuration reference', () => {
  it('docs/configuration.md and .env.example are what the schemas render (npm run config:docs)', () => {
    expect(fs.readFileSync(REFERENCE_FILES.doc, 'utf8'), 'docs/configuration.md: run npm run config:docs').toBe(
      renderConfigurationDoc(),
    );
    expect(fs.readFileSync(REFERENCE_FILES.example, 'utf8'), '.env.example: run npm run config:docs').toBe(
      renderEnvExample(),
    );
  });

  it('lists every variable once, with its default and meaning, in both files', () => {
    const doc = fs.readFileSync(REFERENCE_FILES.doc, 'utf8');
    const example = fs.readFileSync(REFERENCE_FILES.example, 'utf8');
    const all = variables();
    expect(all.length).toBeGreaterThan(80);
    for (const v of all) {
      expect(doc.match(new RegExp(`^\\| \`${v.name}\` \\|`, 'gm')), v.name).toHaveLength(1);
      expect(example.match(new RegExp(`^# ${v.name}=`, 'gm')), v.name).toHaveLength(1);
      expect(v.meta.doc.length, `${v.name}: a meaning`).toBeGreaterThan(10);
    }
    // the variables the issue named are there
    for (const name of [
      'SMTP_URL',
      'STRIPE_SECRET_KEY',
      'GOOGLE_CLIENT_ID',
      'S3_BUCKET',
      'TURN_SECRET',
      'STUN_URLS',
      'CALL_RING_TIMEOUT_MS',
      'TURN_CREDENTIAL_TTL_SECONDS',
      'ADMIN_BACKUP_MAX_BYTES',
      'SUPERADMIN_EMAIL',
      'RATE_LIMIT_MESSAGES_PER_USER',
      'GATEWAY_ENGINE',
    ]) {
      expect(all.map((v) => v.name)).toContain(name);
    }
  });

  it('no product code reads the environment outside the configuration modules', () => {
    const sources = productSources();
    expect(sources).toContain('services/gateway/src/gateway.ts');
    const readers = sources
      .filter((rel) => !CONFIG_MODULES.has(rel) && !OTHER_READERS.has(rel))
      // passing the whole environment on to a child process is not reading it
      .flatMap((rel) =>
        fs
          .readFileSync(path.join(repo, rel), 'utf8')
          .split('\n')
          .map((line, i) => ({ rel, line, i }))
          .filter(({ line }) => /(?<!\.\.\.)process\.env\b/.test(line) && !/^\s*(\*|\/\/)/.test(line))
          .map(({ rel, line, i }) => `${rel}:${i + 1}: ${line.trim()}`),
      );
    expect(readers).toEqual([]);
    for (const rel of CONFIG_MODULES) expect(fs.existsSync(path.join(repo, rel)), rel).toBe(true);
  });
});
