import { describe, expect, it } from 'vitest';
import { inputValues } from './inputs.ts';
import { gatewayAt, roomLoad, totals } from './model.ts';
import { partitionOf, roomId, seededRandom } from './partitions.ts';
import { simulateGateways, simulatePartitions } from './simulate.ts';

const i = inputValues();

describe('the simulation against the closed form', () => {
  it('agrees on every total where no replica straddles the typing cap', () => {
    const s = { name: 't', users: 100_000, roomSize: 500 };
    const sim = simulateGateways(s, i, 175);
    const t = totals(s, i);
    expect(sim.connections.total).toBe(100_000);
    expect(sim.deliveries.total).toBeCloseTo(t.deliveries, 3);
    expect(sim.typingFrames.total / gatewayAt(s, 175, i).typingFrames).toBeCloseTo(1, 2);
    expect(sim.readPerReplica).toBeCloseTo(t.records + t.typingEvents, 6);
    expect(sim.connections.max).toBeGreaterThan(sim.connections.mean); // random balancing is uneven
  });

  it("agrees on typing frames where replicas hold about the cap's threshold of a room (binomial, not the mean)", () => {
    // rooms of 1,000 over 10 replicas: about 100 sockets of a room on each, half of them capped
    const s = { name: 't', users: 2_000_000, roomSize: 1000 };
    const expected = gatewayAt(s, 10, i).typingFrames;
    const uncapped = totals(s, i).rooms * 1000 * roomLoad(1000, i).typingFramesPerSocket;
    expect(expected).toBeLessThan(uncapped * 0.7);
    expect(expected).toBeGreaterThan(uncapped * 0.3);
    for (const seed of [1, 2, 3]) {
      const sim = simulateGateways(s, i, 10, seed);
      expect(Math.abs(sim.typingFrames.total / expected - 1), `seed ${seed}`).toBeLessThan(0.01);
    }
  });

  it('puts each room on the partition of its id, records summing to the closed form', () => {
    const s = { name: 't', users: 100_000, roomSize: 10_000 };
    const sim = simulatePartitions(s, i, 8, 4);
    expect(sim.records.total).toBeCloseTo(totals(s, i).records, 6);
    // the same rooms, placed by hand
    const random = seededRandom(4 ^ 0x5eed);
    const counts = new Array<number>(8).fill(0);
    for (let r = 0; r < 10; r++) counts[partitionOf(roomId(random), 8)]!++;
    expect(sim.empty).toBe(counts.filter((c) => c === 0).length);
    expect(sim.records.max).toBeCloseTo(Math.max(...counts) * roomLoad(10_000, i).records, 6);
    // one room of 10,000 sends 400 messages/s: more than one messaging process can write
    expect(sim.shards).toBeNull();
  });
});
