/**
 * The groups of the configuration reference (docs/configuration.md): every declared variable names one. Apart from
 * the declarations (config-vars.ts, config-rate-limits.ts, each service's config.ts), which all use them.
 */
export const ENV_GROUPS = {
  SERVER: 'Server',
  LOGS: 'Logs and tracing',
  CONNECTIONS: 'Service connections (distributed mode)',
  KEYS: 'Keys and data',
  LIMITS: 'Rate limits',
  BENCH: 'Tests and benchmarks',
} as const;
