/** Configuration is read once from the environment and parsed with zod, so a bad value fails at start-up with a clear message. */
import { z } from 'zod';

export function loadConfig<S extends z.ZodTypeAny>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return parsed.data;
}

/** Pieces shared by the services' config schemas. */
export const commonEnv = {
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  OTEL_TRACES_EXPORTER: z.enum(['none', 'console', 'otlp']).default('none'),
};
export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
export const url = z.string().url();
