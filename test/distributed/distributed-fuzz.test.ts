import { fuzzSuite } from '../suites/fuzz.suite.ts';
import { startDistributedStack } from './stack.ts';

fuzzSuite('distributed', async () => {
  const stack = await startDistributedStack();
  return { url: stack.urlA, stop: stack.stop };
});
