/**
 * The configuration reference, generated from the processes' schemas (services/platform/src/config.ts): every
 * variable once, with its default, what it accepts, which processes read it and what it means, as
 * docs/configuration.md and as .env.example. `npm run config:docs` writes both; test/ops/config-reference.test.ts
 * fails when either differs from what this renders.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { defaultOf, metaOf, type ConfigSpec, type EnvMeta } from '../services/platform/src/config.ts';
import { embeddedConfig } from '../services/embedded/config.ts';
import { roomConfig } from '../services/room/src/config.ts';
import { messagingConfig } from '../services/messaging/src/config.ts';
import { presenceConfig } from '../services/presence/src/config.ts';
import { billingConfig } from '../services/billing/src/config.ts';
import { adminAnalyticsConfig } from '../services/admin-analytics/src/config.ts';
import { gatewayConfig } from '../services/gateway/src/config.ts';
import { localStackConfig } from './local/config.ts';

const repo = path.resolve(import.meta.dirname, '..');

/** Every process with a schema: `npm start`, each distributed service's main.ts, the local stack. */
export const PROCESS_CONFIGS: ConfigSpec[] = [
  embeddedConfig,
  roomConfig,
  messagingConfig,
  presenceConfig,
  billingConfig,
  adminAnalyticsConfig,
  gatewayConfig,
  localStackConfig,
] as unknown as ConfigSpec[];

export interface Variable {
  name: string;
  meta: EnvMeta;
  /** per process: its default ('' when unset means off), or 'required' */
  defaults: Map<string, string>;
  /** per process: what it means there (a port, a Redis, a URL mean different things in different processes) */
  docs: Map<string, string>;
  readBy: string[];
  requiredInProduction: string[];
}

/** Every variable of every process, in the order the processes declare them. */
export function variables(specs = PROCESS_CONFIGS): Variable[] {
  const byName = new Map<string, Variable>();
  for (const spec of specs) {
    for (const [name, schema] of Object.entries(spec.schema.shape as Record<string, z.ZodType>)) {
      const meta = metaOf(schema);
      if (!meta) throw new Error(`${spec.process}: ${name} has no description (declare it with envVar)`);
      const v: Variable = byName.get(name) ?? {
        name,
        meta,
        defaults: new Map(),
        docs: new Map(),
        readBy: [],
        requiredInProduction: [],
      };
      v.docs.set(spec.process, meta.doc);
      v.defaults.set(spec.process, schema.safeParse(undefined).success ? defaultOf(schema) : 'required');
      v.readBy.push(spec.process);
      if (spec.requiredInProduction.includes(name)) v.requiredInProduction.push(spec.process);
      byName.set(name, v);
    }
  }
  return [...byName.values()];
}

const GROUP_ORDER = [
  'Server',
  'Logs and tracing',
  'Service connections (distributed mode)',
  'Keys and data',
  'Rooms',
  'Mail (SMTP)',
  'Accounts',
  'Sign-in with Google',
  'Payments (Stripe)',
  'Calls',
  'Uploaded files (S3)',
  'Admin area',
  'Rate limits',
  'Tests and benchmarks',
  'Local distributed stack (npm run distributed:up)',
];

/** What a group's table alone does not say: how the settings are used together, and how to obtain them. */
const GROUP_INTRO: Record<string, string> = {
  'Service connections (distributed mode)':
    'A distributed service calls the others on their internal listeners (`INTERNAL_PORT`), signing every call with `SERVICE_SECRET`; no ingress may route to an internal listener ([docs/security.md](security.md)).',
  'Keys and data':
    'How the keys wrap one another, and how to rotate a master key: [docs/crypto.md](crypto.md). Embedded keeps everything under `DATA_DIR`; each distributed service its keys on a volume of its own.',
  'Mail (SMTP)':
    "Set `SMTP_URL` to your mail provider's submission address, e.g. `smtp://apikey:SECRET@smtp.example.com:587` (STARTTLS) or `smtps://user:pass@mail.example.com:465`, and `MAIL_FROM` to an address that provider may send for. Without it embedded prints each sign-in code to its log (development only), and a distributed billing service refuses to start in production.",
  Accounts: "The server checks the signed-in session of `SUPERADMIN_EMAIL`'s account, never a header.",
  'Sign-in with Google':
    'Create an OAuth client (type "Web application") in the Google Cloud console, add the authorized redirect URI `https://<your host>/api/auth/google/callback`, and set the three client variables, `GOOGLE_REDIRECT_URI` to that exact address. Any OpenID provider works through `OIDC_ISSUER`. An existing e-mail account is linked only when the provider says the address is verified.',
  'Payments (Stripe)':
    "In the Stripe dashboard add a webhook endpoint `https://<your host>/api/payments/webhook` for `checkout.session.completed`, `checkout.session.async_payment_succeeded`, `invoice.paid`, `invoice.payment_failed`, `customer.subscription.updated`, `customer.subscription.deleted` and `charge.refunded`, and put its signing secret in `STRIPE_WEBHOOK_SECRET`. Tiers change only from what Stripe's own records say (signed events, sessions read back by id). Receipts and renewal reminders go through `SMTP_URL` like the sign-in codes.",
  Calls:
    "The caller's `start-call` ack and the callee's `accept-call` ack carry the ICE servers: `STUN_URLS`, and `TURN_URLS` with a credential in the TURN REST form (username `{expiry unix seconds}:{userId}`, credential `base64(HMAC-SHA1(TURN_SECRET, username))`), which coturn (`use-auth-secret`) and pion TURN check without knowing the users. Behind symmetric NATs calls need TURN: [docs/deployment.md](deployment.md#turn-for-calls).",
  'Rate limits':
    'Each `RATE_LIMIT_<NAME>=<points>/<seconds>` replaces one limit. They are counted in Redis when the process has `REDIS_URL` (every replica shares them), in memory otherwise, each before the work it limits; per-address limits count an IPv6 client by its /64. A refusal is `RATE_LIMITED` on the socket, HTTP 429 with `Retry-After`, and changes nothing ([docs/security.md](security.md#rate-limits)). The defaults are far above what a person does.',
  'Local distributed stack (npm run distributed:up)':
    'The stack gives the services `TRUSTED_PROXIES=127.0.0.1` (its nginx), Redis, the S3 server and internal listeners at their port + 2000; anything else in its environment (SMTP_URL, the Google settings...) passes on to them. Every service answers /healthz and /readyz on its port and /metrics on its port + 1000.',
};

function grouped(vars: Variable[]): [string, Variable[]][] {
  const groups = new Map<string, Variable[]>();
  for (const v of vars) groups.set(v.meta.group, [...(groups.get(v.meta.group) ?? []), v]);
  const unknown = [...groups.keys()].filter((g) => !GROUP_ORDER.includes(g));
  if (unknown.length) throw new Error(`config groups without a place in the reference: ${unknown.join(', ')}`);
  return GROUP_ORDER.filter((g) => groups.has(g)).map((g) => [g, groups.get(g)!]);
}

const ALL_SERVICES = ['embedded', 'room', 'messaging', 'presence', 'billing', 'admin-analytics', 'gateway'];
function readBy(v: Variable): string {
  if (ALL_SERVICES.every((p) => v.readBy.includes(p)))
    return `every process${v.readBy.length > ALL_SERVICES.length ? ', local stack' : ''}`;
  return v.readBy.join(', ');
}

function defaultText(v: Variable): string {
  const values = [...new Set(v.defaults.values())];
  const show = (d: string) => (d === 'required' ? 'required' : d === '' ? 'unset' : `\`${d}\``);
  if (values.length === 1) return show(values[0]);
  return [...v.defaults].map(([p, d]) => `${p}: ${show(d)}`).join('; ');
}

function meaning(v: Variable): string {
  const byDoc = new Map<string, string[]>();
  for (const [p, doc] of v.docs) byDoc.set(doc, [...(byDoc.get(doc) ?? []), p]);
  if (byDoc.size === 1) return `${v.meta.doc}.`;
  return [...byDoc].map(([doc, ps]) => `${ps.join(', ')}: ${doc}.`).join(' ');
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\n/g, ' ');

/** The rules that tie variables together, by the group of their first member. */
function togetherRules(specs: ConfigSpec[]): Map<string, string[]> {
  const rules = new Map<string, Set<string>>();
  const vars = new Map(variables(specs).map((v) => [v.name, v]));
  for (const spec of specs) {
    for (const g of spec.groups) {
      const group = vars.get(g.members[0])!.meta.group;
      const optional = g.members.filter((m) => !g.required.includes(m));
      const names = (ms: string[]) => ms.map((m) => `\`${m}\``).join(', ');
      const text =
        g.required.length === 1
          ? `${names(optional)} only with ${names(g.required)} (${g.what}): a process refuses to start with ${optional.length === 1 ? 'it' : 'one of them'} alone.`
          : `${names(g.required)}: all of them or none (${g.what})${optional.length ? `, and ${names(optional)} only with them` : ''}; a process refuses to start with some but not all.`;
      rules.set(group, new Set([...(rules.get(group) ?? []), text]));
    }
  }
  return new Map([...rules].map(([g, r]) => [g, [...r]]));
}

export function renderConfigurationDoc(specs = PROCESS_CONFIGS): string {
  const out: string[] = [
    '# Configuration',
    '',
    '<!-- Generated by `npm run config:docs` from the schemas (services/*/src/config.ts, services/embedded/config.ts,',
    'services/platform/src/config-vars.ts, deploy/local/config.ts); test/ops/config-reference.test.ts fails when they differ. -->',
    '',
    'Every process reads its settings from environment variables and checks all of them when it starts: a value it',
    'does not accept, a required variable that is missing, or part of a set that only works whole stops it with a',
    'message naming each variable, what it got (never the value of a secret) and what it accepts. An empty value counts',
    'as unset. `npm start` and `npm run distributed:up` also read a `.env` file in the repository root; a variable set',
    'in the environment wins over the file (`docker compose` reads the same file for the `${...}` settings',
    'docker-compose.yml passes on). [`.env.example`](../.env.example) lists every variable with its default.',
    '',
    '"read by" names the processes: `embedded` is `npm start` (services/embedded), the others the distributed services',
    '(services/<name>/src/main.ts) and the local stack that starts them (deploy/local/stack.ts, which passes its own',
    "environment on to every service). The chart sets the distributed services' variables from its values",
    '([docs/deployment.md](deployment.md)).',
  ];
  const rules = togetherRules(specs);
  for (const [group, vars] of grouped(variables(specs))) {
    out.push('', `## ${group}`, '');
    if (GROUP_INTRO[group]) out.push(GROUP_INTRO[group], '');
    for (const rule of rules.get(group) ?? []) out.push(`${rule}`, '');
    out.push('| variable | default | accepts | read by | meaning |', '|---|---|---|---|---|');
    for (const v of vars) {
      const production = v.requiredInProduction.length
        ? ` Required with NODE_ENV=production (${v.requiredInProduction.join(', ')}).`
        : '';
      const notes = `${v.meta.secret ? ' A secret: never printed.' : ''}${v.meta.testOnly ? ' Tests and benchmarks only.' : ''}`;
      out.push(
        `| \`${v.name}\` | ${cell(defaultText(v))} | ${cell(v.meta.accepts)} | ${readBy(v)} | ${cell(meaning(v))}${production}${notes} |`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}

export function renderEnvExample(specs = PROCESS_CONFIGS): string {
  const out: string[] = [
    '# Ephemera configuration. Copy this file to .env: `npm start` and `npm run distributed:up` read it, and a variable',
    '# set in the environment wins over the file. Every variable is commented out at its default (the embedded one where',
    '# the processes differ); an empty value means unset. docs/configuration.md says more about each.',
    '# Generated by `npm run config:docs` from the schemas; a test fails when this file and the schemas differ.',
  ];
  for (const [group, vars] of grouped(variables(specs))) {
    out.push('', `# ---- ${group} ----`);
    for (const v of vars) {
      const d = v.defaults.get('embedded') ?? v.defaults.values().next().value ?? '';
      out.push(`# ${v.name}: ${meaning(v)} [${v.meta.accepts}; read by ${readBy(v)}]`);
      const literal = d !== 'required' && !v.meta.secret && !(v.meta.defaultText !== undefined && /\s/.test(d));
      out.push(`# ${v.name}=${literal ? d : ''}`);
    }
  }
  return `${out.join('\n')}\n`;
}

export const REFERENCE_FILES = {
  doc: path.join(repo, 'docs', 'configuration.md'),
  example: path.join(repo, '.env.example'),
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  fs.writeFileSync(REFERENCE_FILES.doc, renderConfigurationDoc());
  fs.writeFileSync(REFERENCE_FILES.example, renderEnvExample());
  console.log(`wrote ${path.relative(repo, REFERENCE_FILES.doc)} and ${path.relative(repo, REFERENCE_FILES.example)}`);
}
