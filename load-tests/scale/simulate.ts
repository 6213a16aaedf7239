/**
 * A simulation of the sharding that checks the closed form (docs/scale-out.md "The model"): the scenario's rooms get
 * workspace ids and go to partitions by kafkajs' partitioner; its users go to gateway replicas at random, as
 * connection-level balancing places them (not by room). Then per replica connections, frames and events, per
 * partition records, counted room by room. Seeded: the same seed gives the same figures.
 */
import type { Inputs } from './inputs.ts';
import { roomLoad, type Scenario } from './model.ts';
import { partitionOf, roomId, seededRandom } from './partitions.ts';

export interface Spread {
  total: number;
  max: number;
  mean: number;
}

function spread(values: ArrayLike<number>): Spread {
  let total = 0;
  let max = 0;
  for (let k = 0; k < values.length; k++) {
    total += values[k]!;
    max = Math.max(max, values[k]!);
  }
  return { total, max, mean: total / values.length };
}

export interface GatewaySimulation {
  replicas: number;
  connections: Spread;
  deliveries: Spread;
  typingFrames: Spread;
  /** events each replica reads: every record and typing signal (all the same) */
  readPerReplica: number;
  /** events of rooms the replica holds a socket of: what it would read if it read only those */
  eventsOfHeldRooms: Spread;
  /** cores per replica: its sockets' work plus reading every event */
  cores: Spread;
}

export function simulateGateways(s: Scenario, i: Inputs, replicas: number, seed = 1): GatewaySimulation {
  const random = seededRandom(seed);
  const room = roomLoad(s.roomSize, i);
  const rooms = Math.round(s.users / s.roomSize);
  const connections = new Float64Array(replicas);
  const deliveries = new Float64Array(replicas);
  const typingFrames = new Float64Array(replicas);
  const held = new Float64Array(replicas);
  const local = new Int32Array(replicas);
  const touched: number[] = [];
  for (let r = 0; r < rooms; r++) {
    for (let m = 0; m < s.roomSize; m++) {
      const g = Math.floor(random() * replicas);
      if (local[g] === 0) touched.push(g);
      local[g]!++;
    }
    for (const g of touched) {
      const k = local[g]!;
      connections[g]! += k;
      deliveries[g]! += k * room.messages;
      typingFrames[g]! += k * (k >= i.coalesceFromSockets ? room.cappedFramesPerSocket : room.typingFramesPerSocket);
      held[g]! += room.records + room.typingEvents;
      local[g] = 0;
    }
    touched.length = 0;
  }
  const readPerReplica = rooms * (room.records + room.typingEvents);
  const cores = new Float64Array(replicas);
  for (let g = 0; g < replicas; g++) {
    cores[g] =
      (deliveries[g]! * i.gatewayUsPerDelivery +
        typingFrames[g]! * i.gatewayUsPerTypingFrame +
        connections[g]! * i.gatewayIdleUsPerConnection +
        readPerReplica * i.gatewayUsPerEventRead) /
      1e6;
  }
  return {
    replicas,
    connections: spread(connections),
    deliveries: spread(deliveries),
    typingFrames: spread(typingFrames),
    readPerReplica,
    eventsOfHeldRooms: spread(held),
    cores: spread(cores),
  };
}

/**
 * The replicas needed when the busiest one, not the mean, must stay within the budget: more replicas until the
 * busiest fits (the typing cap may lift as the room's share per replica falls). null: reading alone fills one.
 */
export function replicasPacedByBusiest(s: Scenario, i: Inputs, start: number, seed = 1): GatewaySimulation | null {
  let n = start;
  for (let step = 0; step < 200; step++) {
    const sim = simulateGateways(s, i, n, seed);
    if ((sim.readPerReplica * i.gatewayUsPerEventRead) / 1e6 >= i.coreBudget) return null;
    if (sim.cores.max <= i.coreBudget) return sim;
    n += Math.max(1, Math.ceil(n * ((sim.cores.max - i.coreBudget) / i.coreBudget) * 0.5));
  }
  return null;
}

export interface PartitionSimulation {
  partitions: number;
  records: Spread;
  /** partitions no room of the scenario went to */
  empty: number;
  /** the busiest partition's messaging cores (one writer per partition's rooms) */
  busiestWriterCores: number;
  /** messaging shards (round-robin assigned partitions, kafkajs' default) so that the busiest one fits; null: none */
  shards: number | null;
}

export function simulatePartitions(s: Scenario, i: Inputs, partitions: number, seed = 1): PartitionSimulation {
  const random = seededRandom(seed ^ 0x5eed);
  const room = roomLoad(s.roomSize, i);
  const rooms = Math.round(s.users / s.roomSize);
  const records = new Float64Array(partitions);
  const messages = new Float64Array(partitions);
  for (let r = 0; r < rooms; r++) {
    const p = partitionOf(roomId(random), partitions);
    records[p]! += room.records;
    messages[p]! += room.messages;
  }
  const writerCores = Array.from(messages, (m) => (m * i.messagingMsPerMessage) / 1000);
  const busiestWriterCores = Math.max(...writerCores);
  let shards: number | null = null;
  if (busiestWriterCores <= i.coreBudget) {
    for (let m = 1; m <= partitions && shards === null; m++) {
      const load = new Float64Array(m);
      writerCores.forEach((c, p) => (load[p % m]! += c));
      if (Math.max(...load) <= i.coreBudget) shards = m;
    }
  }
  return {
    partitions,
    records: spread(records),
    empty: records.filter((x) => x === 0).length,
    busiestWriterCores,
    shards,
  };
}

/**
 * The partitions needed when the busiest one's rooms, not the mean's, must fit one messaging process: more
 * partitions (x1.25 a step) until some shard count fits. null: one room alone is more than one process.
 */
export function partitionsPacedByBusiest(s: Scenario, i: Inputs, start: number, seed = 1): PartitionSimulation | null {
  if ((roomLoad(s.roomSize, i).messages * i.messagingMsPerMessage) / 1000 > i.coreBudget) return null;
  let partitions = start;
  for (let step = 0; step < 40; step++) {
    const sim = simulatePartitions(s, i, partitions, seed);
    if (sim.shards !== null) return sim;
    partitions = Math.ceil(partitions * 1.25);
  }
  return null;
}
