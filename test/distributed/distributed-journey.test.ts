import { journeySuite } from '../suites/journey.suite.ts';
import { startDistributedStack } from './stack.ts';

journeySuite('distributed (Kafka, Postgres, Redis; A and B on different gateway replicas)', async () => {
  const stack = await startDistributedStack();
  return { url: stack.urlA, urlB: stack.urlB, advanceClock: stack.advanceClock, stop: stack.stop };
});
