/**
 * The storage quota under a burst (storage-quota.suite.ts) against the distributed stack with a second messaging
 * server of this test's own: the burst is spread over both (their public listeners, as the ingress routes uploads),
 * which share PostgreSQL, Kafka and the S3 bucket.
 */
import { createLogger } from '@ephemera/platform';
import { startMessagingServer, S3Storage } from '@ephemera/messaging';
import { startDistributedStack } from '../distributed/stack.ts';
import { startVersitygw } from '../helpers/versitygw.ts';
import { sharedInfra } from '../helpers/infra.ts';
import { storageQuotaSuite, BURST_QUOTA } from './storage-quota.suite.ts';

storageQuotaSuite('distributed (two messaging processes, one bucket)', async () => {
  const s3 = await startVersitygw();
  const storageQuota = () => BURST_QUOTA;
  const stack = await startDistributedStack({ s3, storageQuota });
  const bucket = () =>
    new S3Storage({
      endpoint: s3.endpoint,
      bucket: `files-${stack.eventLogNamespace}`,
      region: s3.region,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
    });
  const second = await startMessagingServer({
    port: 0,
    host: '127.0.0.1',
    databaseUrl: stack.databaseUrl,
    kafkaBrokers: sharedInfra('kafkaBrokers').split(','),
    eventLogNamespace: stack.eventLogNamespace,
    logger: createLogger('test', 'silent'),
    roomUrl: stack.internal.room,
    storage: bucket(),
    serviceSecret: stack.serviceSecret,
    storageQuota,
  });
  return {
    url: stack.urlA,
    uploadBases: [`http://127.0.0.1:${stack.messagingPort}`, `http://127.0.0.1:${second.port}`],
    storedObjects: async (workspaceId) => {
      const reader = bucket();
      try {
        return await reader.list(`${workspaceId}/`);
      } finally {
        await reader.close();
      }
    },
    stop: async () => {
      await second.stop();
      await stack.stop();
      await s3.stop();
    },
  };
});
