/**
 * The distributed topology in one test process: room, messaging and presence servers and two gateway replicas,
 * each with its own Kafka client, Redis connection and Postgres pool, talking real HTTP to each other, against the
 * Kafka, Redis and Postgres servers the global setup started. Users A and B connect to different replicas.
 * (deploy/local/up.sh runs the same servers as separate processes behind nginx.)
 */
import { inject } from 'vitest';
import { createLogger } from '@ephemera/platform';
import { startRoomServer } from '@ephemera/room';
import { startMessagingServer } from '@ephemera/messaging';
import { startPresenceServer } from '@ephemera/presence';
import { startGatewayServer } from '@ephemera/gateway';
import { createTestDatabase } from '../helpers/db.ts';

export async function startDistributedStack(options: { logLevel?: string } = {}) {
  const logger = createLogger('test', options.logLevel ?? 'silent');
  const databaseUrl = await createTestDatabase();
  const kafkaBrokers = inject('kafkaBrokers').split(',');
  const redisUrl = inject('redisUrl');
  let offset = 0;
  const now = () => new Date(Date.now() + offset);

  const room = await startRoomServer({ port: 0, host: '127.0.0.1', databaseUrl, kafkaBrokers, logger, sweepIntervalMs: 200, now });
  let messaging = await startMessagingServer({ port: 0, host: '127.0.0.1', databaseUrl, kafkaBrokers, logger, now });
  const presence = await startPresenceServer({ port: 0, host: '127.0.0.1', redisUrl, logger });
  const messagingPort = messaging.port;
  const gatewayOpts = (id: string) => ({
    port: 0, host: '127.0.0.1', gatewayId: id, roomUrl: room.url, messagingUrl: messaging.url, presenceUrl: presence.url,
    kafkaBrokers, redisUrl, allowedOrigins: [], logger, httpUpstream: room.url,
  });
  const gateways = [await startGatewayServer(gatewayOpts('gw-1')), await startGatewayServer(gatewayOpts('gw-2'))];

  return {
    urlA: `http://127.0.0.1:${gateways[0]!.port}`,
    urlB: `http://127.0.0.1:${gateways[1]!.port}`,
    gateways,
    advanceClock: (ms: number) => { offset += ms; },
    /** stop the messaging service and start it again on the same port (a crashed pod coming back) */
    async restartMessaging() {
      await messaging.stop();
      messaging = await startMessagingServer({ port: messagingPort, host: '127.0.0.1', databaseUrl, kafkaBrokers, logger, now });
    },
    async stop() {
      for (const g of gateways) await g.stop().catch(() => {});
      await messaging.stop().catch(() => {});
      await presence.stop().catch(() => {});
      await room.stop().catch(() => {});
    },
  };
}
