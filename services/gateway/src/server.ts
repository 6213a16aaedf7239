/** A gateway replica as its own process (distributed mode): services over HTTP, Kafka fan-out, Redis presence bus. */
import {
  kafkaEventLog,
  sealedEventLog,
  RoomKeyring,
  RedisEphemeralStore,
  createRateLimits,
  internalRpcClient,
  serviceCredential,
  MESSAGE_KEYS_METHODS,
  MESSAGE_KEYS_PREFIX,
  remoteMessageKeys,
  type LimitConfig,
  type Logger,
  type MessageKeysApi,
} from '@ephemera/platform';
import { roomKeyClient } from '@ephemera/room/src/room-keys-http.ts';
import { roomClient } from '@ephemera/room/src/client.ts';
import { messagingClient } from '@ephemera/messaging/src/client.ts';
import { PresenceClient } from '@ephemera/presence/src/http.ts';
import { startGateway, type Gateway, type GatewayOptions } from './gateway.ts';

export async function startGatewayServer(opts: {
  port: number;
  host?: string;
  gatewayId: string;
  roomUrl: string;
  messagingUrl: string;
  presenceUrl: string;
  kafkaBrokers: string[];
  eventLogNamespace?: string;
  redisUrl: string;
  allowedOrigins: string[];
  logger: Logger;
  /** route /api to the room service like the ingress does (tests without nginx) */
  httpUpstream?: string;
  trustedProxies?: string[];
  metrics?: { port: number; host?: string };
  /** limits (default: RATE_LIMIT_* from the environment, config-vars.ts); counters shared through Redis by every replica */
  rateLimits?: LimitConfig;
  /** calls (default: CALL_RING_TIMEOUT_MS, STUN_URLS, TURN_* from the environment, config.ts) */
  calls?: GatewayOptions['calls'];
  /** big rooms' thresholds (default proto's BIG_ROOM; coalesce.ts): tests lower them */
  bigRoom?: GatewayOptions['bigRoom'];
  /** GATEWAY_ENGINE (default auto) */
  engine?: GatewayOptions['engine'];
  /** SERVICE_SECRET: every call to room, messaging and presence (their internal listeners: the *Url above) is signed with it */
  serviceSecret: string;
}): Promise<Gateway> {
  const credential = serviceCredential('gateway', opts.serviceSecret);
  // The gateway only reads the log: it opens each room's events with the key the room service hands out (and seals
  // the names it stores in presence with the same keys).
  const keyring = new RoomKeyring(roomKeyClient(opts.roomUrl, credential));
  const log = sealedEventLog(
    kafkaEventLog({
      brokers: opts.kafkaBrokers,
      clientId: `gateway-${opts.gatewayId}`,
      logger: opts.logger,
      namespace: opts.eventLogNamespace,
    }),
    keyring,
    // message bodies are sealed under each message's own key, which the messaging service keeps (docs/crypto.md)
    {
      logger: opts.logger,
      messageKeys: remoteMessageKeys(
        internalRpcClient<MessageKeysApi>(opts.messagingUrl, credential, MESSAGE_KEYS_PREFIX, MESSAGE_KEYS_METHODS),
      ),
    },
  );
  const bus = new RedisEphemeralStore(opts.redisUrl);
  const rooms = roomClient(opts.roomUrl, credential);
  const limits = createRateLimits({
    redisUrl: opts.redisUrl,
    namespace: opts.eventLogNamespace,
    config: opts.rateLimits,
  });
  const gateway = await startGateway({
    port: opts.port,
    host: opts.host,
    gatewayId: opts.gatewayId,
    rooms,
    messaging: messagingClient(opts.messagingUrl, credential),
    presence: new PresenceClient(opts.presenceUrl, credential),
    keyring,
    log,
    bus,
    logger: opts.logger,
    allowedOrigins: opts.allowedOrigins,
    httpUpstream: opts.httpUpstream,
    limits,
    trustedProxies: opts.trustedProxies,
    metrics: opts.metrics,
    engine: opts.engine,
    bigRoom: opts.bigRoom,
    // call leases are swept per deployment (EVENT_LOG_NAMESPACE), like the rate-limit keys in the same Redis
    calls: { ...opts.calls, ...(opts.eventLogNamespace ? { namespace: opts.eventLogNamespace } : {}) },
    ready: async () => (await fetch(`${opts.roomUrl}/healthz`)).ok,
  });
  return {
    ...gateway,
    async stop() {
      await gateway.stop();
      await log.close();
      await bus.close();
      await limits.close();
    },
  };
}
