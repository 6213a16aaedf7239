/** Big rooms in embedded mode (test/suites/big-room.suite.ts), the thresholds lowered so a few users reach them. */
import { describe, beforeAll, afterAll } from 'vitest';
import { bigRoomSuite, BIG_ROOM_SIZES } from '../../../test/suites/big-room.suite.ts';
import type { Target } from '../../../test/suites/journey.suite.ts';
import { startEmbeddedTarget } from './target.ts';

describe('big rooms: embedded (npm start)', () => {
  let t: Target | null = null;
  beforeAll(async () => {
    t = await startEmbeddedTarget({ bigRoom: BIG_ROOM_SIZES });
  });
  afterAll(async () => {
    await t?.stop();
  });
  bigRoomSuite(() => {
    if (!t) throw new Error('target not started');
    return Object.assign(t, { A: t.url, B: t.url });
  });
});
