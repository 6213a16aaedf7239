import { roomExperienceSuites } from '../suites/room-experience.ts';
import { startDistributedStack } from './stack.ts';

roomExperienceSuites('distributed (Kafka, Postgres, Redis; A and B on different gateway replicas)', async () => {
  const stack = await startDistributedStack();
  return { url: stack.urlA, urlB: stack.urlB, advanceClock: stack.advanceClock, stop: stack.stop };
});
