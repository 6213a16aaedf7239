/**
 * docker-compose.yml, without a container engine: docker compose's own loader (compose-go, built by
 * deploy/ops/install-tools.sh) validates it against the Compose specification's JSON schema and checks its
 * consistency; then every service, port, variable and file it names is checked against the code.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { deployableServices, read, repo, run, serviceConfig, tools } from './code-facts.ts';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  environment?: Record<string, string | null>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: { target: number; published: string }[];
  volumes?: { type: string; source: string; target: string }[];
}
interface ComposeProject {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const composeCheck = path.join(tools, 'bin', 'compose-check');
let project: ComposeProject;

beforeAll(() => {
  const built = run('bash', ['deploy/ops/install-tools.sh', 'compose']);
  expect(built.code, built.out).toBe(0);
  const loaded = run(composeCheck, [path.join(repo, 'docker-compose.yml')]);
  expect(loaded.code, loaded.out).toBe(0);
  project = JSON.parse(loaded.out);
}, 600_000);

describe('docker-compose.yml', () => {
  it("passes the Compose specification schema and consistency checks (docker compose's loader)", () => {
    expect(Object.keys(project.services).sort()).toEqual([
      'admin-analytics',
      'billing',
      'gateway-1',
      'gateway-2',
      'kafka',
      'mailpit',
      'messaging',
      'postgres',
      'presence',
      'proxy',
      'redis',
      'room',
    ]);
  });

  it('rejects a broken file (the check can fail)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compose-bad-'));
    const bad = read('docker-compose.yml')
      .replace('  redis:\n    image:', '  redis:\n    imagez: typo\n    image:')
      .replace('postgres: { condition: service_healthy }', 'postgress: { condition: service_healthy }');
    fs.writeFileSync(path.join(dir, 'docker-compose.yml'), bad);
    const r = run(composeCheck, [path.join(dir, 'docker-compose.yml')]);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/imagez|additional properties/i);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs every deployable service of the code, from its Dockerfile, with the variables its main.ts reads', () => {
    const appServices = Object.entries(project.services).filter(([, s]) => s.build?.args?.SERVICE);
    const built = new Set(appServices.map(([, s]) => s.build!.args!.SERVICE));
    expect([...built].sort()).toEqual(deployableServices());
    for (const [name, s] of appServices) {
      const service = s.build!.args!.SERVICE;
      expect(fs.existsSync(path.join(repo, s.build!.dockerfile)), `${name}: ${s.build!.dockerfile}`).toBe(true);
      const { vars, defaultPort } = serviceConfig(service);
      const env = Object.keys(s.environment ?? {});
      for (const v of env) expect(vars, `${name} sets ${v}, which services/${service} does not read`).toContain(v);
      expect(Number(s.environment!.PORT), `${name}: PORT`).toBe(defaultPort);
    }
    // two gateway replicas, each its own GATEWAY_ID
    const ids = appServices
      .filter(([, s]) => s.build!.args!.SERVICE === 'gateway')
      .map(([, s]) => s.environment!.GATEWAY_ID);
    expect(new Set(ids).size).toBe(2);
  });

  it('points every service URL and broker address at a compose service on its port (another service: its internal listener)', () => {
    const env = (svc: string) => project.services[svc]?.environment;
    // services call each other on their internal listeners (INTERNAL_PORT), everything else on its port
    const portOf = (svc: string) =>
      Number(
        env(svc)?.INTERNAL_PORT ?? env(svc)?.PORT ?? { kafka: 9092, postgres: 5432, redis: 6379, mailpit: 1025 }[svc],
      );
    for (const [name, s] of Object.entries(project.services)) {
      for (const [key, value] of Object.entries(s.environment ?? {})) {
        if (!value || !/_URL$|^KAFKA_BROKERS$/.test(key)) continue;
        for (const address of value.split(',')) {
          const { hostname, port } = new URL(address.includes('://') ? address : `tcp://${address}`);
          expect(project.services[hostname], `${name} ${key}: no service ${hostname}`).toBeDefined();
          expect(Number(port), `${name} ${key}: ${hostname} listens on ${portOf(hostname)}`).toBe(portOf(hostname));
        }
      }
    }
  });

  it('starts in health order: every dependency is waited for healthy and has a health check', () => {
    for (const [name, s] of Object.entries(project.services)) {
      for (const [dep, { condition }] of Object.entries(s.depends_on ?? {})) {
        expect(condition, `${name} -> ${dep}`).toBe('service_healthy');
        expect(project.services[dep].healthcheck?.test?.length, `${dep} has no healthcheck`).toBeGreaterThan(0);
      }
    }
    // as deploy/local/stack.ts: room before messaging, both before the gateways, gateways before the proxy
    expect(Object.keys(project.services.messaging.depends_on!)).toContain('room');
    expect(Object.keys(project.services['gateway-1'].depends_on!)).toEqual(
      expect.arrayContaining(['room', 'messaging', 'presence']),
    );
    expect(Object.keys(project.services.proxy.depends_on!)).toEqual(
      expect.arrayContaining(['gateway-1', 'gateway-2', 'admin-analytics']),
    );
    // admin-analytics opens every topic with room's and billing's keys and calls messaging: after all three
    expect(Object.keys(project.services['admin-analytics'].depends_on!)).toEqual(
      expect.arrayContaining(['room', 'billing', 'messaging']),
    );
  });

  it('keeps Kafka, PostgreSQL and Redis data and every key and backup directory in named volumes; mounts only files that exist', () => {
    for (const svc of ['kafka', 'postgres', 'redis']) {
      const volume = project.services[svc].volumes?.find((v) => v.type === 'volume');
      expect(volume, svc).toBeDefined();
      expect(Object.keys(project.volumes ?? {})).toContain(volume!.source);
    }
    // the directories a service keeps (room and account keys, admin-analytics' key and backups) survive a re-create
    for (const [name, s] of Object.entries(project.services)) {
      for (const [key, dir] of Object.entries(s.environment ?? {})) {
        if (!/_KEY_DIR$|^BACKUP_DIR$/.test(key)) continue;
        const volume = s.volumes?.find((v) => v.target === dir);
        expect(volume?.type, `${name} ${key}`).toBe('volume');
        expect(Object.keys(project.volumes ?? {})).toContain(volume!.source);
      }
    }
    for (const [name, s] of Object.entries(project.services)) {
      for (const v of s.volumes ?? [])
        if (v.type === 'bind') expect(fs.existsSync(v.source), `${name}: ${v.source}`).toBe(true);
    }
    expect(project.services.proxy.ports?.map((p) => p.target)).toEqual([8080]);
  });

  it('proxies to the compose services and ports the code uses, with the routes of deploy/local', () => {
    const conf = read('deploy/docker/proxy.nginx.conf');
    for (const m of conf.matchAll(/server ([a-z0-9-]+):(\d+)/g)) {
      const env = project.services[m[1]]?.environment;
      expect(env, `proxy upstream ${m[1]}`).toBeDefined();
      expect(Number(env!.PORT)).toBe(Number(m[2]));
    }
    // the same locations as the tested ingress of the distributed mode
    const local = read('deploy/local/nginx.conf.template');
    const locations = (text: string) => [...text.matchAll(/location (= )?(\S+) \{/g)].map((m) => m[2]).sort();
    const staticConf = read('deploy/docker/nginx/static.conf');
    expect([...locations(conf), ...locations(staticConf)].sort()).toEqual(locations(local));
  });
});
