/**
 * The credential contract (test/credentials/credentials.suite.ts) distributed: room, messaging (files in S3 on
 * versitygw), billing and admin-analytics each their own server, two gateway replicas; messaging's bearer routes ask
 * the room service over its internal route.
 */
import { freePort } from '@ephemera/platform';
import { credentialSuites } from '../credentials/credentials.suite.ts';
import { startVersitygw } from '../helpers/versitygw.ts';
import { startDistributedStack } from './stack.ts';

credentialSuites('distributed (Kafka, Postgres, Redis, S3; A and B on different gateway replicas)', async (env) => {
  const s3 = await startVersitygw();
  const stack = await startDistributedStack({
    s3,
    admin: true,
    accounts: {
      port: await freePort(),
      smtpUrl: env.smtpUrl,
      superadminEmail: 'root@example.test',
      rateLimits: env.rateLimits,
    },
  });
  return {
    url: stack.urlA,
    urlB: stack.urlB,
    advanceClock: stack.advanceClock,
    stop: async () => {
      await stack.stop();
      await s3.stop();
    },
  };
});
