/**
 * The rate-limit tests (and the bad-input and metrics checks) against the distributed stack with low limits:
 * counters in Redis, shared by the two gateway replicas (A in this process, B a child process reading the same
 * RATE_LIMIT_* variables) and the services.
 */
import { startDistributedStack } from '../distributed/stack.ts';
import { freePort } from '@ephemera/platform';
import { rateLimitSuite, lowLimitEnv, LOW_LIMITS } from './rate-limits.suite.ts';
import { startVersitygw } from '../helpers/versitygw.ts';

// Every process of the stack reads its limits from the environment (this test file runs in a process of its own).
Object.assign(process.env, lowLimitEnv());

rateLimitSuite(
  'distributed (Redis; A and B on different gateway replicas)',
  async () => {
    const s3 = await startVersitygw(); // uploads are stored in S3 when distributed
    // Billing too, for the sign-in limits (no mail is sent: only wrong codes are tried).
    const accounts = {
      port: await freePort(),
      smtpUrl: 'smtp://127.0.0.1:9',
      superadminEmail: 'root@example.test',
      rateLimits: LOW_LIMITS,
    };
    const stack = await startDistributedStack({ trustedProxies: ['loopback'], metrics: true, s3, accounts });
    return {
      A: stack.urlA,
      B: stack.urlB,
      metricsPorts: stack.metricsPorts,
      crashB: () => stack.gateway2.kill('SIGKILL'),
      stop: async () => {
        await stack.stop();
        await s3.stop();
      },
    };
  },
  { replicas: true },
);
