/** The distributed services' event log: Kafka, optionally under a namespace (EVENT_LOG_NAMESPACE). */
import type { EventLog } from './port.ts';
import { KafkaEventLog } from './kafka.ts';
import { NamespacedEventLog } from './namespaced.ts';
import type { Logger } from '../log.ts';

export function kafkaEventLog(opts: {
  brokers: string[];
  clientId: string;
  logger?: Logger;
  namespace?: string;
}): EventLog {
  const log = new KafkaEventLog({ brokers: opts.brokers, clientId: opts.clientId, logger: opts.logger });
  return opts.namespace ? new NamespacedEventLog(log, opts.namespace) : log;
}
