/**
 * The benchmark's own rate limits. The product's defaults (docs/configuration.md: RATE_LIMIT_*) stop a person who floods; the
 * bench is one address opening a thousand sockets and five users sending hundreds of events a second, so for its
 * run it raises every limit the servers read (platform RATE_LIMIT_DEFAULTS, so a new limit is raised too), and says
 * so. A limit the caller set explicitly (RATE_LIMIT_...=x/y in the environment) is kept.
 */
import { rateLimitEnvNames } from '../../services/platform/src/rate-limit.ts';

const RAISED = '100000000/1';

/** Sets RATE_LIMIT_* for the servers this process starts; returns the line to print. */
export function raiseRateLimitsForBench(env: NodeJS.ProcessEnv = process.env): string {
  const raised: string[] = [];
  for (const key of Object.values(rateLimitEnvNames())) {
    if (env[key]) continue;
    env[key] = RAISED;
    raised.push(key);
  }
  return raised.length === 0
    ? 'rate limits: as set in the environment (RATE_LIMIT_*)'
    : `rate limits RAISED for this benchmark run (${RAISED} points/seconds): ${raised.join(', ')}; the product's defaults are in docs/configuration.md`;
}
