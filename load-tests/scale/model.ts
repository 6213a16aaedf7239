/**
 * The closed form of docs/scale-out.md: the load a user model gives, and what each process kind needs for it. A user
 * is one socket in one room; every room of a scenario has the same size. Rates are per second.
 */
import type { Inputs } from './inputs.ts';

export interface Scenario {
  name: string;
  users: number;
  roomSize: number;
}

export const SCENARIOS: Scenario[] = [100_000, 1_000_000].flatMap((users) =>
  [10, 500, 10_000].map((roomSize) => ({
    name: `${users >= 1e6 ? `${users / 1e6}m` : `${users / 1000}k`}-${roomSize}`,
    users,
    roomSize,
  })),
);

/** What one room of the scenario produces. */
export interface RoomLoad {
  messages: number;
  records: number;
  typingEvents: number;
  /** typing frames each socket of the room receives while its gateway forwards every typer */
  typingFramesPerSocket: number;
  /** ... and while its gateway holds enough of the room's sockets to cap the typers shown */
  cappedFramesPerSocket: number;
}

export function roomLoad(size: number, i: Inputs): RoomLoad {
  const messages = size / i.sendIntervalS;
  const typingEvents = messages * i.typingEventsPerSend;
  const typingFramesPerSocket = (typingEvents * (size - 1)) / size; // every typer's but one's own
  const typersAtOnce = messages * i.typingSessionS;
  const capped =
    typersAtOnce > i.typersShown
      ? (i.typersShown * i.typingEventsPerSend) / i.typingSessionS + 1000 / i.coalesceWindowMs
      : typingFramesPerSocket;
  return {
    messages,
    records: messages * (1 + i.otherRecordsShare),
    typingEvents,
    typingFramesPerSocket,
    cappedFramesPerSocket: Math.min(capped, typingFramesPerSocket),
  };
}

/**
 * Typing frames one gateway of `gateways` writes for one room, in expectation: the room's sockets on it are
 * Binomial(size, 1/gateways) under connection-level balancing, and the cap applies where they reach the threshold.
 */
export function typingFramesPerRoomGateway(size: number, gateways: number, i: Inputs): number {
  const room = roomLoad(size, i);
  const p = 1 / gateways;
  const mean = size * p;
  // sum over k below the threshold of k * P(k), in log space so that (1 - p)^size does not underflow
  let below = 0;
  if (p < 1) {
    let logP = size * Math.log1p(-p);
    for (let k = 0; k < Math.min(i.coalesceFromSockets, size + 1); k++) {
      below += k * Math.exp(logP);
      logP += Math.log((size - k) / (k + 1)) + Math.log(p / (1 - p));
    }
  }
  const atOrAbove = mean - below;
  return below * room.typingFramesPerSocket + atOrAbove * room.cappedFramesPerSocket;
}

/** The scenario's totals that do not depend on the gateway count. */
export function totals(s: Scenario, i: Inputs) {
  const rooms = s.users / s.roomSize;
  const room = roomLoad(s.roomSize, i);
  const messages = rooms * room.messages;
  return {
    rooms,
    connections: s.users,
    messages,
    deliveries: messages * s.roomSize,
    records: rooms * room.records,
    recordsMb: (rooms * room.records * i.recordBytes) / 1e6,
    typingEvents: rooms * room.typingEvents,
  };
}

export interface GatewayPlan {
  replicas: number;
  typingFrames: number;
  /** cores of all replicas for their own sockets (deliveries, typing frames, idle) */
  socketCores: number;
  /** cores each replica spends reading every event */
  readCoresPerReplica: number;
}

/** Gateway cores at a given replica count. */
export function gatewayAt(s: Scenario, replicas: number, i: Inputs): GatewayPlan {
  const t = totals(s, i);
  const typingFrames = t.rooms * replicas * typingFramesPerRoomGateway(s.roomSize, replicas, i);
  const socketCores =
    (t.deliveries * i.gatewayUsPerDelivery +
      typingFrames * i.gatewayUsPerTypingFrame +
      t.connections * i.gatewayIdleUsPerConnection) /
    1e6;
  const readCoresPerReplica = ((t.records + t.typingEvents) * i.gatewayUsPerEventRead) / 1e6;
  return { replicas, typingFrames, socketCores, readCoresPerReplica };
}

/**
 * The fewest replicas from `start` for which `fits` holds. The socket work per replica falls as replicas are added,
 * except where the typing cap stops applying (fewer than its threshold of a room's sockets per replica), so a capped
 * fit may lie below an uncapped one: the first 1,000 counts are tried one by one (the capped ones are among them
 * whenever any fits), then doubling and halving the step. Infinity past 2^31.
 */
function fewest(start: number, fits: (n: number) => boolean): number {
  for (let n = start; n < start + 1000; n++) if (fits(n)) return n;
  let lo = start + 999;
  let hi = lo * 2;
  while (!fits(hi)) {
    lo = hi;
    hi *= 2;
    if (hi > 2 ** 31) return Infinity;
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The fewest replicas at `coreBudget` each; replicas: Infinity when reading every event alone fills a replica. */
export function gatewayPlan(s: Scenario, i: Inputs): GatewayPlan {
  const first = gatewayAt(s, 1, i);
  if (first.readCoresPerReplica >= i.coreBudget) return { ...first, replicas: Infinity };
  // the socket work is least with every socket on one replica (the typing cap applies most): a floor to start from
  const floor = Math.max(1, Math.floor(first.socketCores / (i.coreBudget - first.readCoresPerReplica)));
  const n = fewest(floor, (k) => gatewayAt(s, k, i).socketCores / k + first.readCoresPerReplica <= i.coreBudget);
  return gatewayAt(s, n, i);
}

/** The fewest replicas for the sockets' own work alone, whatever reading costs (where reading fills a replica). */
export function socketOnlyReplicas(s: Scenario, i: Inputs): number {
  const floor = Math.max(1, Math.floor(gatewayAt(s, 1, i).socketCores / i.coreBudget));
  return fewest(floor, (n) => gatewayAt(s, n, i).socketCores / n <= i.coreBudget);
}

/**
 * Replicas if each read only the events of rooms it holds a socket of, connections balanced at random, or of the
 * rooms routed to it (connections routed by room). Searched by doubling, then halving the step (the read share falls
 * as replicas are added, the socket work rises once the typing cap stops applying). Infinity: none up to 2^31.
 */
export function gatewayIfFiltered(s: Scenario, i: Inputs, byRoom: boolean): number {
  const t = totals(s, i);
  const room = roomLoad(s.roomSize, i);
  const fits = (n: number) => {
    const roomsHeld = byRoom ? Math.max(t.rooms / n, 1) : t.rooms * (1 - Math.pow(1 - 1 / n, s.roomSize));
    const read = (roomsHeld * (room.records + room.typingEvents) * i.gatewayUsPerEventRead) / 1e6;
    let socketCores = gatewayAt(s, n, i).socketCores;
    if (byRoom) {
      // a replica holds its rooms' sockets together: the typing cap applies once it holds enough of one room
      const held = Math.min(s.roomSize, s.users / n);
      const perSocket = held >= i.coalesceFromSockets ? room.cappedFramesPerSocket : room.typingFramesPerSocket;
      socketCores =
        (t.deliveries * i.gatewayUsPerDelivery +
          t.connections * perSocket * i.gatewayUsPerTypingFrame +
          t.connections * i.gatewayIdleUsPerConnection) /
        1e6;
    }
    return socketCores / n + read <= i.coreBudget;
  };
  return fewest(1, fits);
}

export interface Projection {
  scenario: Scenario;
  totals: ReturnType<typeof totals>;
  gateway: GatewayPlan;
  /** the gateway count the other figures are priced at: the plan's, or the sockets' own need where none suffices */
  gatewaysPriced: number;
  /** cores per process kind */
  cores: Record<'gateway' | 'ingress' | 'messaging' | 'admin' | 'presence' | 'room' | 'kafka' | 'postgres', number>;
  replicas: Record<'gateway' | 'ingress' | 'messaging' | 'admin' | 'presence' | 'room', number>;
  kafka: { partitions: number; egressMb: number; groups: number };
  redis: { ops: number; pubsubOut: number; instances: number };
  /** cores one room's writer needs (one partition, one messaging shard) */
  roomWriterCores: number;
  gatewayRssMb: number;
}

export function project(s: Scenario, i: Inputs): Projection {
  const t = totals(s, i);
  const gateway = gatewayPlan(s, i);
  const n = gateway.replicas;
  // where no replica count suffices, what follows is priced at the count the sockets' own work needs
  const countable = Number.isFinite(n) ? n : socketOnlyReplicas(s, i);
  const frames = t.deliveries + gatewayAt(s, countable, i).typingFrames;
  const replicasOf = (c: number) => Math.ceil(c / i.coreBudget - 1e-9);
  const messaging = (t.messages * i.messagingMsPerMessage) / 1000;
  const admin = (t.messages * i.adminMsPerMessage) / 1000;
  const groups = countable + i.consumerGroupsBesideGateways;
  const cores = {
    gateway: Number.isFinite(n) ? gateway.socketCores + n * gateway.readCoresPerReplica : Infinity,
    ingress: (frames * i.ingressUsPerFrame) / 1e6,
    messaging,
    admin,
    presence: (t.typingEvents * i.presenceMsPerTypingEvent) / 1000,
    room: (t.connections / countable / i.reconnectWindowS) * (i.roomMsPerJoin / 1000),
    kafka: (t.records * (1 + groups) * i.kafkaUsPerRecordCopy) / 1e6,
    postgres: (t.messages * i.postgresMsPerMessage) / 1000,
  };
  const replicas = {
    gateway: n,
    ingress: replicasOf(cores.ingress),
    messaging: replicasOf(messaging),
    admin: replicasOf(admin),
    presence: replicasOf(cores.presence),
    room: replicasOf(cores.room),
  };
  const partitions = Math.max(
    Math.ceil(t.records / i.partitionRecordsBudget),
    Math.ceil(t.recordsMb / i.partitionMbBudget),
    replicas.messaging,
    replicas.admin,
  );
  const heartbeatCalls =
    (t.connections * i.redisCallsPerConnectionHeartbeat +
      t.connections * i.redisCallsPerUserHeartbeat +
      t.rooms * i.redisCallsPerRoomHeartbeat) /
    i.heartbeatS;
  const pubsubOut = t.typingEvents * countable;
  const ops =
    heartbeatCalls + t.typingEvents * i.redisCallsPerTypingEvent + t.messages * i.redisCallsPerSend + pubsubOut;
  return {
    scenario: s,
    totals: t,
    gateway,
    gatewaysPriced: countable,
    cores,
    replicas,
    kafka: { partitions, egressMb: t.recordsMb * groups, groups },
    redis: { ops, pubsubOut, instances: Math.ceil(ops / i.redisOpsBudget) },
    roomWriterCores: (roomLoad(s.roomSize, i).messages * i.messagingMsPerMessage) / 1000,
    gatewayRssMb: i.gatewayBaseRssMb + ((t.connections / countable) * i.gatewayRssKbPerConnection) / 1000,
  };
}
