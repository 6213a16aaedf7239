import { describe, expect, it } from 'vitest';
import { inputValues } from './inputs.ts';
import { limits } from './limits.ts';
import { gatewayAt, gatewayPlan, project, roomLoad, totals, typingFramesPerRoomGateway } from './model.ts';

// Round inputs, so that every figure below can be worked out by hand.
const i = inputValues({
  sendIntervalS: 10,
  typingEventsPerSend: 2,
  typingSessionS: 4,
  otherRecordsShare: 0.25,
  gatewayUsPerDelivery: 1000,
  gatewayUsPerTypingFrame: 1000,
  gatewayIdleUsPerConnection: 100,
  gatewayUsPerEventRead: 1000,
  messagingMsPerMessage: 2,
  coreBudget: 0.1,
  coalesceFromSockets: 100,
  typersShown: 3,
  coalesceWindowMs: 300,
});

describe('the closed form on a hand-computed case', () => {
  const small = { name: 'small', users: 100, roomSize: 5 };

  it('gives the load of 20 rooms of 5', () => {
    // 100 users / 10 s = 10 messages/s, each to 5 sockets; 2 typing events per message, each to the 4 others
    expect(totals(small, i)).toMatchObject({
      rooms: 20,
      messages: 10,
      deliveries: 50,
      records: 12.5,
      typingEvents: 20,
    });
    expect(roomLoad(5, i).typingFramesPerSocket).toBeCloseTo(0.8, 10);
    expect(gatewayAt(small, 2, i).typingFrames).toBeCloseTo(80, 6);
  });

  it('sizes the gateways: each reads every event, the rest is shared', () => {
    // sockets: (50 + 80) x 1 ms + 100 x 0.1 ms = 0.14 core; each replica reads (12.5 + 20) x 1 ms = 0.0325 core;
    // 0.14 / n + 0.0325 <= 0.1 first at n = 3
    const plan = gatewayPlan(small, i);
    expect(plan.socketCores).toBeCloseTo(0.14, 10);
    expect(plan.readCoresPerReplica).toBeCloseTo(0.0325, 10);
    expect(plan.replicas).toBe(3);
    expect(project(small, i).cores.messaging).toBeCloseTo(0.02, 10);
    expect(project(small, i).replicas.messaging).toBe(1);
  });

  it('finds no replica count when reading alone fills one', () => {
    expect(gatewayPlan({ name: 'big', users: 1000, roomSize: 5 }, i).replicas).toBe(Infinity); // 0.325 core each
  });

  it('caps typing where a replica holds enough of a big room', () => {
    // a room of 1,000: 100 messages/s, 400 typers at once; capped: 3 shown x 2 / 4 s + one count frame per 300 ms
    const capped = 1.5 + 1000 / 300;
    expect(roomLoad(1000, i).cappedFramesPerSocket).toBeCloseTo(capped, 10);
    expect(typingFramesPerRoomGateway(1000, 1, i)).toBeCloseTo(1000 * capped, 6);
    // at 1,000 replicas a replica holds about one socket of the room: nothing is capped
    expect(typingFramesPerRoomGateway(1000, 1000, i)).toBeCloseTo(roomLoad(1000, i).typingFramesPerSocket, 6);
  });
});

describe('the limits on the same case', () => {
  it('gives each the users at which it is reached, first the lowest', () => {
    const found = limits({ name: 'small', users: 100, roomSize: 5 }, i);
    const ceiling = (start: string) => found.find((l) => l.name.startsWith(start))!.ceiling;
    // messaging: 0.02 core for 100 users, one replica of 0.1 core: 500 users
    expect(ceiling('messaging')).toBeCloseTo(500, 6);
    // reading every event: 0.0325 core per replica for 100 users, filled at 0.1 core: 307.7 users
    expect(ceiling('gateways: reading')).toBeCloseTo(100 / 0.325, 6);
    expect(ceiling("one room's writer")).toBe(Infinity); // 0.5 messages/s x 2 ms
    expect(found.map((l) => l.ceiling)).toEqual([...found.map((l) => l.ceiling)].sort((a, b) => a - b));
  });
});

describe('the gateway count', () => {
  it('finds a fit where the typing cap applies before an uncapped one further up', () => {
    // one room of 10,000 with the real inputs: about 54 replicas hold 185 sockets of it each (capped); from 100
    // replicas on, fewer than 100 each, every typer forwarded, and thousands would be needed
    const plan = gatewayPlan({ name: 'one', users: 10_000, roomSize: 10_000 }, inputValues());
    expect(plan.replicas).toBeGreaterThan(40);
    expect(plan.replicas).toBeLessThan(100);
  });
});
