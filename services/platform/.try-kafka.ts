import { startKafka, freePort } from '../../deploy/local/infra.ts';
import { KafkaEventLog } from './src/event-log/kafka.ts';
import { TOPICS } from '@ephemera/proto';
import fs from 'node:fs';
const dir = `/tmp/try-kafka-${process.pid}`; fs.mkdirSync(dir, { recursive: true });
let t = Date.now();
const k = await startKafka({ dataDir: `${dir}/kafka`, port: await freePort(), controllerPort: await freePort() });
console.log('kafka up', Date.now() - t);
const log = new KafkaEventLog({ brokers: k.brokers, clientId: 'try' });
t = Date.now(); await log.init(Object.values(TOPICS)); console.log('init', Date.now() - t);
for (const fb of [true, false, true, false]) {
  t = Date.now();
  const s = await log.subscribe({ groupId: 'g' + Math.random(), topics: [TOPICS.room], fromBeginning: fb, handler: async () => {} });
  console.log('subscribe fromBeginning', fb, Date.now() - t);
  t = Date.now(); await s.stop(); console.log('stop', Date.now() - t);
}
await log.close();
await k.stop();
