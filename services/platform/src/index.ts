export * from './config.ts';
export * from './config-vars.ts';
export * from './log.ts';
export * from './pg.ts';
export * from './ids.ts';
export * from './telemetry.ts';
export * from './http.ts';
export * from './service-client.ts';
export * from './mutex.ts';
export * from './projection.ts';
export type { EventLog, LogRecord, Delivery, SubscribeOptions, Subscription } from './event-log/port.ts';
export type { EphemeralStore } from './ephemeral/port.ts';
export { EmbeddedEventLog } from './event-log/embedded.ts';
export * from './events.ts';
export * from './web.ts';
export * from './service-main.ts';
export { KafkaEventLog } from './event-log/kafka.ts';
export { RedisEphemeralStore } from './ephemeral/redis.ts';
export { MemoryEphemeralStore } from './ephemeral/memory.ts';
export { NamespacedEventLog } from './event-log/namespaced.ts';
export { SealedEventLog, sealedEventLog, type SealedEventLogOptions } from './event-log/sealed.ts';
export {
  MESSAGE_KEYS_METHODS,
  MESSAGE_KEYS_PREFIX,
  newMessageKey,
  remoteMessageKeys,
  unwrapMessageKey,
  wrapMessageKey,
  type MessageKeyStore,
  type MessageKeysApi,
} from './event-log/message-keys.ts';
export { kafkaEventLog } from './event-log/kafka-factory.ts';
export { freePort } from './net.ts';
export * from './rate-limit.ts';
export * from './client-address.ts';
export * from './metrics-server.ts';
export * from './metrics-http.ts';
export * from './metrics-consumer-lag.ts';
export * from './crypto/index.ts';
export * from './internal-rpc.ts';
export * from './internal-routes.ts';
export * from './command-rpc.ts';
export * from './service-credential.ts';
export * from './internal-path.ts';
export * from './path-guard.ts';
export type { InternalListenerOptions } from './internal-listener.ts';
export * from './maintenance.ts';
export { BodyHandoff, BODY_HANDOFF_HEADER } from './body-handoff.ts';
export { copyToRecycled, lendRecycled, recycle, takeRecycled, RECYCLED_SIZE } from './recycled-buffers.ts';
export * from './public-route.ts';
export { BackupPart, importBatches, type BackupPartOptions } from './backup-part.ts';
export { backupPartRouter, backupPartClient } from './backup-part-http.ts';
export * from './write-path.ts';
