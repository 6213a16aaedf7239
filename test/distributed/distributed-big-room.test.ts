/**
 * Big rooms in distributed mode (test/suites/big-room.suite.ts): two gateway replicas (observers on A, joiners on B),
 * presence through Redis, the thresholds lowered on both gateways so a few users reach them.
 */
import { describe, beforeAll, afterAll } from 'vitest';
import { INTERNAL } from '@ephemera/proto';
import { bigRoomSuite, BIG_ROOM_SIZES } from '../suites/big-room.suite.ts';
import type { Target } from '../suites/journey.suite.ts';
import { startDistributedStack } from './stack.ts';

describe('big rooms: distributed (Kafka, Postgres, Redis; A and B on different gateway replicas)', () => {
  let t: Target | null = null;
  beforeAll(async () => {
    const stack = await startDistributedStack({ bigRoom: BIG_ROOM_SIZES });
    t = {
      url: stack.urlA,
      urlB: stack.urlB,
      advanceClock: stack.advanceClock,
      // change-tier is an internal route of the room service: called as billing would, on its internal listener, signed
      changeTier: async (workspaceId, tier) => {
        await stack.roomInternalCall(INTERNAL.changeTier, { workspaceId, tier, reason: 'test' });
      },
      stop: stack.stop,
    };
  });
  afterAll(async () => {
    await t?.stop();
  });
  bigRoomSuite(() => {
    if (!t) throw new Error('target not started');
    return Object.assign(t, { A: t.url, B: t.urlB ?? t.url });
  });
});
