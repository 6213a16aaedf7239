/**
 * Configuration: every environment variable a process reads is declared once, in its process's schema (zod), with
 * what it means and what it accepts (envVar). The process parses its whole environment at start (loadConfig): a bad
 * value, a missing required one or half of a set that only works whole stops it with a message naming the variable,
 * what it got (never a secret's value) and what it accepts. The same declarations generate .env.example and
 * docs/configuration.md (deploy/config-reference.ts), so the reference cannot drift from what is read.
 */
import { z } from 'zod';

/** What the configuration reference says about one variable. */
export interface EnvMeta {
  /** the heading it is listed under in docs/configuration.md and .env.example */
  group: string;
  /** one line: what it is for */
  doc: string;
  /** what it accepts, in words: the refusal says it */
  accepts: string;
  /** the default in words when the schema's default is not a plain value (e.g. "PORT + 2000") */
  defaultText?: string;
  /** a credential, or a URL that may carry one: its value is never printed */
  secret?: boolean;
  /** for tests and benchmarks only: a deployment leaves it unset (the chart does not wire it) */
  testOnly?: boolean;
}

/** The metadata of every declared variable, by schema. */
export const envMeta = z.registry<EnvMeta>();

/** Declare a variable's schema with its metadata (each call must get its own schema instance). */
export function envVar<T extends z.ZodType>(schema: T, meta: EnvMeta): T {
  envMeta.add(schema as z.ZodType, meta);
  return schema;
}

/**
 * Variables that only work together: when any member is set, every member of `required` must be set too
 * (Google sign-in needs its three client settings; TURN needs its addresses and its secret).
 */
export interface EnvGroupRule {
  what: string;
  members: string[];
  required: string[];
}

/** A process's configuration: its variables, the sets that go together, and what production requires. */
export interface ConfigSpec<S extends z.ZodRawShape = z.ZodRawShape> {
  /** the process, as the reference names it ("embedded", "room", ...) */
  process: string;
  schema: z.ZodObject<S>;
  groups: EnvGroupRule[];
  /** with NODE_ENV=production these must be set (a development fallback would be unsafe there) */
  requiredInProduction: string[];
}

export function configSpec<S extends z.ZodRawShape>(
  process: string,
  shape: S,
  opts: { groups?: EnvGroupRule[]; requiredInProduction?: (keyof S & string)[] } = {},
): ConfigSpec<S> {
  const spec = {
    process,
    schema: z.object(shape),
    groups: opts.groups ?? [],
    requiredInProduction: opts.requiredInProduction ?? [],
  };
  for (const name of [...spec.groups.flatMap((g) => g.members), ...spec.requiredInProduction]) {
    if (!(name in shape)) throw new Error(`${process} config: ${name} is named by a rule but not declared`);
  }
  return spec;
}

/** A refused configuration: the message lists every problem, one line each. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Invalid configuration: the process did not start.\n${problems.map((p) => `  ${p}`).join('\n')}\nThe variables are described in docs/configuration.md.`,
    );
    this.name = 'ConfigError';
  }
}

/**
 * The variables of `spec` from `env`, parsed. An empty value counts as unset (a chart or .env line left blank).
 * Throws ConfigError naming each bad, missing or incomplete variable.
 */
export function loadConfig<S extends z.ZodRawShape>(
  spec: ConfigSpec<S> | z.ZodObject<S>,
  env: NodeJS.ProcessEnv = process.env,
): z.output<z.ZodObject<S>> {
  const full = spec instanceof z.ZodObject ? configSpec('process', spec.shape) : spec;
  const shape = full.schema.shape as z.ZodRawShape;
  const raw: Record<string, string> = {};
  for (const name of Object.keys(shape)) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[name] = value;
  }
  const problems: string[] = [];
  const parsed = full.schema.safeParse(raw);
  if (!parsed.success) {
    const byVariable = new Map<string, string[]>();
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '');
      byVariable.set(name, [...(byVariable.get(name) ?? []), issue.message]);
    }
    for (const [name, messages] of byVariable) problems.push(refusal(name, shape[name], raw[name], messages));
  }
  for (const group of full.groups) {
    const set = group.members.filter((m) => raw[m] !== undefined);
    const missing = group.required.filter((m) => raw[m] === undefined);
    if (set.length > 0 && missing.length > 0) {
      const needs =
        group.required.length === 1
          ? `${group.what} needs ${group.required[0]}`
          : `${group.what} needs ${list(group.required)} together`;
      problems.push(
        `${list(missing)} ${missing.length === 1 ? 'is' : 'are'} missing: ${needs}, and ${list(set)} ${set.length === 1 ? 'is' : 'are'} set. ` +
          `Set ${list(missing)}, or unset ${list(set)}.`,
      );
    }
  }
  if (raw.NODE_ENV === 'production') {
    for (const name of full.requiredInProduction) {
      if (raw[name] === undefined)
        problems.push(
          `${name} is missing: required when NODE_ENV=production. Accepts: ${metaOf(shape[name])?.accepts ?? 'a value'}.`,
        );
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return (parsed as { data: z.output<z.ZodObject<S>> }).data;
}

/**
 * A process's start: its configuration, or the refusal on stderr and exit code 1 (no stack trace: the message is
 * the whole story).
 */
export function configOrExit<S extends z.ZodRawShape>(
  spec: ConfigSpec<S>,
  env: NodeJS.ProcessEnv = process.env,
): z.output<z.ZodObject<S>> {
  try {
    return loadConfig(spec, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

export const metaOf = (schema: z.core.$ZodType | undefined): EnvMeta | undefined =>
  schema ? envMeta.get(schema) : undefined;

/** A schema's default as the reference shows it ('' when it has none). */
export function defaultOf(schema: z.core.$ZodType): string {
  const meta = metaOf(schema);
  if (meta?.defaultText !== undefined) return meta.defaultText;
  type Def = { type: string; defaultValue?: unknown; in?: z.core.$ZodType; innerType?: z.core.$ZodType };
  let s: z.core.$ZodType | undefined = schema;
  while (s) {
    const def: Def = (s._zod as unknown as { def: Def }).def;
    if (def.type === 'default') return String(def.defaultValue);
    s = def.type === 'pipe' ? def.in : def.innerType;
  }
  return '';
}

function refusal(
  name: string,
  schema: z.core.$ZodType | undefined,
  value: string | undefined,
  messages: string[],
): string {
  const meta = metaOf(schema);
  const accepts = meta ? ` Accepts: ${meta.accepts}.` : '';
  if (value === undefined) return `${name} is missing: it is required.${accepts}`;
  // A secret is never echoed, neither as the value nor inside a message that might quote it.
  const hide = (text: string) => (meta?.secret ? text.split(value).join('<hidden>') : text);
  const got = meta?.secret ? `a value of ${value.length} characters (a secret: not shown)` : JSON.stringify(value);
  return `${name}: got ${got}, refused (${hide(messages.join('; '))}).${accepts}`;
}

function list(names: string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
