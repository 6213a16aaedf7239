/**
 * The shared PostgreSQL, Redis and Kafka that test/global-setup.ts starts for the integration, e2e and ops projects
 * (vitest.config.ts). The unit project starts none, so a file listed there that reaches for one stops here, by name.
 */
import { inject, type ProvidedContext } from 'vitest';

type InfraKey = 'pgUrl' | 'redisUrl' | 'kafkaBrokers' | 'infraDataDir';

export function sharedInfra<K extends InfraKey>(key: K): ProvidedContext[K] {
  const value = inject(key) as ProvidedContext[K] | undefined;
  if (value === undefined) {
    throw new Error(
      `this test file needs the shared PostgreSQL, Redis and Kafka (${key}), which the unit project does not start: ` +
        'take it out of the unit list in vitest.config.ts so it runs in the integration project',
    );
  }
  return value;
}

/** the shared Kafka's brokers, host:port each */
export function kafkaBrokers(): string[] {
  return sharedInfra('kafkaBrokers').split(',');
}
