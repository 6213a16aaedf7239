/**
 * The benchmark's own rate limits. The product's defaults (README: RATE_LIMIT_*) stop a person who floods; the
 * bench is one address opening a thousand sockets and five users sending hundreds of events a second, so for its
 * run it raises every limit the servers it starts read from the environment, and says so. A limit the caller set
 * explicitly (RATE_LIMIT_...=x/y in the environment) is kept.
 */
const RAISED = '100000000/1';
const NAMES = [
  'CONNECTIONS_PER_ADDRESS', 'EVENTS_PER_USER', 'MESSAGES_PER_USER', 'PASSWORD_FAILURES_PER_ADDRESS', 'PASSWORD_FAILURES_PER_ROOM',
  'ROOM_CREATIONS_PER_ADDRESS', 'NAME_CHECKS_PER_ADDRESS', 'LINK_PREVIEWS_PER_USER',
];

/** Sets RATE_LIMIT_* for the servers this process starts; returns the line to print. */
export function raiseRateLimitsForBench(env: NodeJS.ProcessEnv = process.env): string {
  const raised: string[] = [];
  for (const n of NAMES) {
    const key = `RATE_LIMIT_${n}`;
    if (env[key]) continue;
    env[key] = RAISED;
    raised.push(key);
  }
  return raised.length === 0
    ? 'rate limits: as set in the environment (RATE_LIMIT_*)'
    : `rate limits RAISED for this benchmark run (${RAISED} points/seconds): ${raised.join(', ')}; the product's defaults are in the README`;
}
