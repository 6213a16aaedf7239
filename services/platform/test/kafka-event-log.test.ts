import { kafkaBrokers } from '../../../test/helpers/infra.ts';
import { TOPICS } from '@ephemera/proto';
import { KafkaEventLog } from '../src/event-log/kafka.ts';
import { eventLogContract, restartable } from './event-log.contract.ts';

async function connect(): Promise<KafkaEventLog> {
  const log = new KafkaEventLog({ brokers: kafkaBrokers(), clientId: 'event-log-contract' });
  await log.init(Object.values(TOPICS)); // idempotent: every call after the first finds the topics there
  return log;
}

eventLogContract('kafka', restartable(connect));
