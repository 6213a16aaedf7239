/**
 * The Helm chart and the alerting rules: `npm run chart:check` must pass (helm lint --strict, helm template with
 * each value set, kubeconform -strict, a server-side dry run with strict field validation on a real
 * kube-apiserver, promtool), and each of those layers must be able to fail: broken copies are shown to each.
 * The first run on a fresh machine builds the tools (several minutes); later runs reuse deploy/local/.tools.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_PORT_OFFSET } from '../../services/platform/src/config-vars.ts';
import {
  deployableServices,
  exportedMetrics,
  rateLimitVars,
  read,
  repo,
  run,
  serviceConfig,
  testOnlyVars,
  tools,
} from './code-facts.ts';

const bin = (name: string) => path.join(tools, 'bin', name);
const KUBE = '1.37.2';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'chart-test-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Render the chart (or a copy) with a value set; returns the manifest text. */
function render(chart: string, valuesFile?: string, set: string[] = []): string {
  const args = [
    'template',
    'ephemera',
    chart,
    '--namespace',
    'ephemera',
    '--kube-version',
    KUBE,
    ...(valuesFile ? ['-f', valuesFile] : []),
    ...set.flatMap((s) => ['--set', s]),
  ];
  const r = run(bin('helm'), args);
  expect(r.code, r.out).toBe(0);
  return r.out;
}

let checkOutput = '';
beforeAll(() => {
  const r = run('npm', ['run', '--silent', 'chart:check'], { timeoutMs: 1_500_000 });
  checkOutput = r.out;
  expect(r.code, r.out).toBe(0);
}, 1_600_000);

describe('npm run chart:check', () => {
  it('ran every layer: promtool, lint, template, kubeconform, the API server dry run', () => {
    expect(checkOutput).toMatch(/promtool: rules valid, unit tests pass, dashboard queries parse/);
    expect(checkOutput).toMatch(/helm lint --strict and helm template: default .*production-values.*/);
    expect(checkOutput).toMatch(
      /Summary: \d+ resources found in \d+ files - Valid: \d+, Invalid: 0, Errors: 0, Skipped: 0/,
    );
    expect(checkOutput).toMatch(/apiserver-dry-run: (\d+) of \1 objects accepted/);
  });
});

describe('each layer rejects a broken chart', () => {
  it('values.schema.json: helm lint --strict refuses a misspelt or unsafe value', () => {
    for (const set of ['gateway.replicaz=2', 'room.replicas=2', 'logLevel=loud']) {
      const r = run(bin('helm'), ['lint', '--strict', '--kube-version', KUBE, 'charts/ephemera', '--set', set]);
      expect(r.code, `${set}\n${r.out}`).not.toBe(0);
    }
  });

  it('kubeconform -strict and the API server (fieldValidation=Strict) refuse an unknown field and a wrong type; the API server also an invalid value', () => {
    const chart = path.join(work, 'ephemera');
    fs.cpSync(path.join(repo, 'charts', 'ephemera'), chart, { recursive: true });
    const file = path.join(chart, 'templates', 'services.yaml');
    fs.writeFileSync(
      file,
      fs
        .readFileSync(file, 'utf8')
        .replace('revisionHistoryLimit: 5', 'revisionHistoryLimit: 5\n  progressDeadlineSecondz: 600')
        .replace('timeoutSeconds: 3', 'timeoutSeconds: "three"')
        // well-typed but not a valid port name (IANA_SVC_NAME): only the server's validation knows
        .replace('    - name: http\n      port: {{ $svc.port }}', '    - name: http_port\n      port: {{ $svc.port }}'),
    );
    const rendered = path.join(work, 'broken.yaml');
    fs.writeFileSync(rendered, render(chart));
    const schemas = path.join(tools, 'k8s-schemas', `v${KUBE}`, '{{ .ResourceKind }}{{ .KindSuffix }}.json');
    const kc = run(bin('kubeconform'), ['-strict', '-summary', '-schema-location', schemas, rendered]);
    expect(kc.code).not.toBe(0);
    expect(kc.out).toMatch(/progressDeadlineSecondz/);
    expect(kc.out).not.toMatch(/Service ephemera-gateway is invalid/);
    const dry = run('node', ['--import', 'tsx', 'deploy/ops/apiserver-dry-run.ts', rendered], { timeoutMs: 180_000 });
    expect(dry.code, dry.out).not.toBe(0);
    expect(dry.out).toMatch(/REJECTED .*Deployment ephemera-gateway: 4\d\d .*(progressDeadlineSecondz|timeoutSeconds)/);
    expect(dry.out).toMatch(/REJECTED .*Service ephemera-gateway: 422 .*http_port/);
  }, 240_000);

  it('promtool: a rule that no longer matches its unit test fails', () => {
    const dir = path.join(work, 'prom');
    fs.mkdirSync(path.join(dir, 'rules'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'rules', 'alerts.yaml'),
      read('charts/ephemera/files/prometheus/alerts.yaml').replace('> 1000', '> 100000'),
    );
    fs.writeFileSync(
      path.join(dir, 'alerts.test.yaml'),
      read('deploy/ops/prometheus/alerts.test.yaml').replace(
        '../../../charts/ephemera/files/prometheus/alerts.yaml',
        'rules/alerts.yaml',
      ),
    );
    const r = run(bin('promtool'), ['test', 'rules', 'alerts.test.yaml'], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/EphemeraConsumerLagHigh/);
  });
});

/**
 * Variables a service reads that the chart does not set: NODE_ENV comes from the image (Dockerfile.service), the
 * OTLP exporter's address and headers go in extraEnv beside otel.tracesExporter, and GATEWAY_ENGINE keeps its
 * default (auto: the image carries a uWS binary that loads).
 */
const CHART_LEAVES_UNSET = new Set([
  'NODE_ENV',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'GATEWAY_ENGINE',
]);

describe('the chart against the code', () => {
  const sets = () => [
    undefined,
    'charts/ephemera/ci/production-values.yaml',
    'charts/ephemera/ci/features-values.yaml',
    'charts/ephemera/ci/layer4-values.yaml',
  ];

  it('wires every variable each service reads (its configuration schema), and nothing it does not read', () => {
    const wired = new Map<string, Set<string>>();
    // every RATE_LIMIT_* the code reads, set through the chart's rateLimits map
    const limits = rateLimitVars().map((v) => `rateLimits.${v.replace(/^RATE_LIMIT_/, '')}=1/1`);
    for (const values of sets()) {
      for (const doc of render('charts/ephemera', values, limits).split(/^---$/m)) {
        const component = /app\.kubernetes\.io\/component: (\S+)/.exec(doc)?.[1];
        if (!/^kind: Deployment$/m.test(doc) || !component || component === 'frontend') continue;
        const names = [...doc.matchAll(/^ {12}- name: ([A-Z][A-Z0-9_]*)$/gm)].map((m) => m[1]);
        wired.set(component, new Set([...(wired.get(component) ?? []), ...names]));
      }
    }
    expect([...wired.keys()].sort()).toEqual(deployableServices());
    const extra = new Set(['NODE_OPTIONS']); // ci/features-values.yaml's extraEnv example: read by Node itself
    for (const service of deployableServices()) {
      const code = serviceConfig(service).vars;
      const set = wired.get(service)!;
      for (const v of set) if (!extra.has(v)) expect(code, `chart sets ${v} for ${service}`).toContain(v);
      const testOnly = testOnlyVars(service);
      for (const v of code) {
        if (!testOnly.has(v) && !CHART_LEAVES_UNSET.has(v))
          expect(set, `${service}: ${v} (services/${service}/src/config.ts) not wired`).toContain(v);
      }
      const { defaultPort, defaultMetricsPort } = serviceConfig(service);
      expect(read('charts/ephemera/values.yaml')).toMatch(
        new RegExp(`^${service}:\\n(?:  .*\\n)*?  port: ${defaultPort}$`, 'm'),
      );
      if (defaultMetricsPort)
        expect(read('charts/ephemera/values.yaml')).toMatch(
          new RegExp(`^${service}:\\n(?:  .*\\n)*?  metricsPort: ${defaultMetricsPort}\\b`, 'm'),
        );
      // every RATE_LIMIT_* the code reads can be set
      for (const v of rateLimitVars()) if (code.has(v)) expect(set, `${service}: ${v} not wired`).toContain(v);
    }
  });

  it('hardens every workload and gives each service its probes, account, Service, and the gateway its HPA and PDB', () => {
    for (const values of sets()) {
      const docs = render('charts/ephemera', values).split(/^---$/m);
      const named = (kind: string) =>
        docs.filter((d) => new RegExp(`^kind: ${kind}$`, 'm').test(d)).map((d) => /^ {2}name: (\S+)$/m.exec(d)![1]);
      for (const doc of docs.filter((d) => /^kind: (Deployment|Job)$/m.test(d))) {
        const name = /^ {2}name: (\S+)$/m.exec(doc)![1];
        for (const must of [
          'runAsNonRoot: true',
          'readOnlyRootFilesystem: true',
          'allowPrivilegeEscalation: false',
          '- ALL',
          'limits:',
          'automountServiceAccountToken: false',
        ]) {
          expect(doc, `${values ?? 'default'}: ${name} lacks ${must}`).toContain(must);
        }
      }
      for (const service of deployableServices()) {
        const deployment = docs.find(
          (d) => /^kind: Deployment$/m.test(d) && new RegExp(`^ {2}name: ephemera-${service}$`, 'm').test(d),
        );
        expect(deployment, service).toBeDefined();
        expect(deployment).toMatch(/readinessProbe:\n\s+httpGet: \{ path: \/readyz/);
        expect(deployment).toMatch(/livenessProbe:\n\s+httpGet: \{ path: \/healthz/);
        expect(named('Service')).toContain(`ephemera-${service}`);
        expect(named('ServiceAccount')).toContain(`ephemera-${service}`);
      }
      if (!values?.includes('features')) {
        expect(named('HorizontalPodAutoscaler')).toContain('ephemera-gateway');
        expect(named('PodDisruptionBudget')).toContain('ephemera-gateway');
        expect(named('NetworkPolicy').length).toBeGreaterThanOrEqual(deployableServices().length);
        expect(docs.some((d) => /^kind: Job$/m.test(d) && /helm\.sh\/hook: pre-install,pre-upgrade/.test(d))).toBe(
          true,
        );
      } else {
        expect(named('HorizontalPodAutoscaler')).toContain('ephemera-messaging');
      }
    }
  });

  it("the service boundary: internal ports by the code's rule, never an ingress backend, each open only to its callers", () => {
    const offset = INTERNAL_PORT_OFFSET;
    // who calls whose internal listener, from the code: each service's src/server.ts builds its clients from the
    // callees' URLs (opts.roomUrl, ...), which name internal listeners
    const callers: Record<string, string[]> = {};
    for (const caller of deployableServices()) {
      for (const m of read(`services/${caller}/src/server.ts`).matchAll(
        /opts\.(room|messaging|presence|billing)Url\b/g,
      )) {
        if (!(callers[m[1]] ??= []).includes(caller)) callers[m[1]].push(caller);
      }
    }
    expect(Object.keys(callers).sort()).toEqual(['billing', 'messaging', 'presence', 'room']);
    const values = read('charts/ephemera/values.yaml');
    for (const service of Object.keys(callers)) {
      const { defaultPort } = serviceConfig(service);
      expect(values, service).toMatch(
        new RegExp(`^${service}:\\n(?:  .*\\n)*?  internalPort: ${defaultPort + offset}\\b`, 'm'),
      );
    }
    for (const set of sets()) {
      const docs = render('charts/ephemera', set).split(/^---$/m);
      const internalPorts = new Set(Object.keys(callers).map((s) => serviceConfig(s).defaultPort + offset));
      // every Ingress backend is a Service's public port, by name
      for (const doc of docs.filter((d) => /^kind: Ingress$/m.test(d))) {
        const ports = [...doc.matchAll(/port:\n\s+(name|number): (\S+)/g)].map((m) => `${m[1]}:${m[2]}`);
        expect(ports.length).toBeGreaterThan(0);
        for (const p of ports) expect(p, set ?? 'default').toBe('name:http');
      }
      // the ConfigMap points every service URL at an internal listener
      const config = docs.find((d) => /^kind: ConfigMap$/m.test(d) && /ROOM_URL/.test(d))!;
      for (const m of config.matchAll(/^ {2}([A-Z]+)_URL: "http:\/\/[^:]+:(\d+)"$/gm))
        expect(internalPorts, `${m[1]}_URL`).toContain(Number(m[2]));
      // each internal port admits exactly its callers (a value set may turn the NetworkPolicies off)
      if (!docs.some((d) => /^kind: NetworkPolicy$/m.test(d))) continue;
      for (const [service, expected] of Object.entries(callers)) {
        const policy = docs.find(
          (d) => /^kind: NetworkPolicy$/m.test(d) && new RegExp(`^ {2}name: ephemera-${service}$`, 'm').test(d),
        )!;
        const port = serviceConfig(service).defaultPort + offset;
        const ingress = policy.slice(policy.indexOf('  ingress:'), policy.indexOf('  egress:'));
        const admitted = ingress
          .split(/\n {4}- from:/)
          .filter((rule) => new RegExp(`port: ${port} \\}`).test(rule))
          .map((rule) => /component: (\S+)/.exec(rule)?.[1] ?? 'not a pod of the release');
        expect(admitted.sort(), `${set ?? 'default'}: ${service}'s internal port`).toEqual([...expected].sort());
      }
    }
  });

  it('the layer-4 path (docs/deployment.md): a LoadBalancer Service with client affinity in front of the gateways, HTTP to the ingress controller', () => {
    const docs = render('charts/ephemera', 'charts/ephemera/ci/layer4-values.yaml').split(/^---$/m);
    const lb = docs.find((d) => /^kind: Service$/m.test(d) && /^ {2}name: ephemera-gateway-public$/m.test(d))!;
    expect(lb).toMatch(/^ {2}type: LoadBalancer$/m);
    expect(lb).toMatch(/^ {2}sessionAffinity: ClientIP$/m);
    expect(lb).toMatch(/^ {2}externalTrafficPolicy: Local$/m);
    expect(lb).toMatch(/app\.kubernetes\.io\/component: gateway/);
    // only the public port: the internal listener and metrics are never behind the balancer
    expect([...lb.matchAll(/targetPort: (\S+)/g)].map((m) => m[1])).toEqual(['http']);
    const policy = (name: string) =>
      docs.find((d) => /^kind: NetworkPolicy$/m.test(d) && new RegExp(`^ {2}name: ephemera-${name}$`, 'm').test(d))!;
    const gateway = policy('gateway');
    const gatewayIn = gateway.slice(gateway.indexOf('  ingress:'), gateway.indexOf('  egress:'));
    expect(gatewayIn).toMatch(
      /- ipBlock: \{ cidr: 203\.0\.113\.0\/24 \}\n\s+ports:\n\s+- \{ protocol: TCP, port: 8101 \}/,
    );
    expect(gateway.slice(gateway.indexOf('  egress:'))).toMatch(
      /the layer-4 path: the HTTP forwarding to the ingress controller[\s\S]*?port: 80 \}/,
    );
    // the gateways forward HTTP to the controller, not to room's public port
    const room = policy('room');
    const roomPublic = room
      .slice(room.indexOf('  ingress:'), room.indexOf('  egress:'))
      .split(/\n {4}- from:/)
      .filter((rule) => /port: 8201 \}/.test(rule));
    expect(roomPublic.join('\n')).not.toMatch(/component: gateway/);
    const config = docs.find((d) => /^kind: ConfigMap$/m.test(d) && /HTTP_UPSTREAM/.test(d))!;
    expect(config).toContain('HTTP_UPSTREAM: "http://ingress-nginx-controller.ingress-nginx.svc.cluster.local"');
    // without an upstream for HTTP the path is refused at render time
    const refused = run(bin('helm'), [
      'template',
      'ephemera',
      'charts/ephemera',
      '--kube-version',
      KUBE,
      '--set',
      'gateway.loadBalancer.enabled=true',
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toMatch(/httpUpstream/);
  });

  it('alerts and the dashboard use only metrics that exist (the services, prom-client, or the named exporters)', () => {
    const external = new Set([
      'up',
      'kafka_consumergroup_lag',
      'kafka_consumergroup_members',
      'kubelet_volume_stats_available_bytes',
      'kubelet_volume_stats_capacity_bytes',
    ]);
    const known = new Set([...exportedMetrics(), ...external]);
    const exprs = [
      ...[
        ...read('charts/ephemera/files/prometheus/alerts.yaml').matchAll(
          /expr: (?:\|\n)?([\s\S]*?)\n\s+(?:for|labels):/g,
        ),
      ].map((m) => m[1]),
      ...[...read('charts/ephemera/files/grafana/ephemera.json').matchAll(/"expr": "((?:[^"\\]|\\.)*)"/g)].map((m) =>
        JSON.parse(`"${m[1]}"`),
      ),
    ];
    expect(exprs.length).toBeGreaterThan(20);
    const keywords = new Set(['and', 'or', 'unless', 'bool', 'offset']);
    for (const expr of exprs) {
      // Metric names are the identifiers left once strings, grouping clauses, matchers and ranges are gone,
      // that are not functions (followed by "(") or keywords.
      const bare = expr
        .replace(/"[^"]*"/g, '')
        .replace(/\b(by|on|without|ignoring)\s*\([^)]*\)/g, '')
        .replace(/\{[^}]*\}/g, '')
        .replace(/\[[^\]]*\]/g, '');
      const names = [...bare.matchAll(/\b([a-zA-Z_][a-zA-Z0-9_:]*)\b(?!\s*\()/g)]
        .map((m) => m[1])
        .filter((n) => !keywords.has(n));
      expect(names.length, expr).toBeGreaterThan(0);
      for (const n of names) expect(known, `${n} in: ${expr}`).toContain(n);
    }
  });
});
