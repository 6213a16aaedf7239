/**
 * The scale-out projection's inputs (docs/scale-out.md "Inputs"), each with where it comes from. `measured`: a run
 * recorded in the repository, as it was counted there; `assumed`: never measured, the reason given; `configured`: what
 * the code or the chart sets (taken from the code where it is a constant). Change one here and `npm run bench:scale`
 * recomputes every table.
 */
import { BIG_ROOM } from '@ephemera/proto';
import { HEARTBEAT_MS } from '@ephemera/gateway/src/presence-heartbeat.ts';

export type InputKind = 'measured' | 'assumed' | 'configured';

export interface Input {
  value: number;
  unit: string;
  kind: InputKind;
  source: string;
}

const W3 =
  'load-tests/results/2026-11-27-w3-distributed.md (full sweep session, 25 sends/s, 1,000 sockets in one room)';

export const INPUTS = {
  // The user model
  sendIntervalS: {
    value: 25,
    unit: 's between two sends of a user',
    kind: 'assumed',
    source: "midpoint of W2's 20-30 s (docs/product/performance.md Workloads)",
  },
  typingEventsPerSend: {
    value: 2,
    unit: 'typing events per send (start, stop)',
    kind: 'assumed',
    source: 'what the k6 W2 script does',
  },
  typingSessionS: {
    value: 4,
    unit: 's a typer stays typing (the shown slot turns over once per session)',
    kind: 'assumed',
    source: "about 2 s of typing, then the client's 2 s idle stop (LIMITS.typingStopMs); only the capped rooms use it",
  },
  otherRecordsShare: {
    value: 0.25,
    unit: 'other durable records per message.sent (read marks, room events, edits)',
    kind: 'assumed',
    source: 'not measured',
  },
  recordBytes: {
    value: 1000,
    unit: 'bytes per Kafka record on the wire',
    kind: 'assumed',
    source: 'a sealed 100-byte text, its envelope and trace headers; not measured',
  },
  // Per-process costs
  gatewayUsPerDelivery: {
    value: 8.8,
    unit: 'gateway CPU-µs per frame written to a socket',
    kind: 'measured',
    source: `both gateways' CPU / chat frames delivered, medians of 3 x 60 s: 4.32 + 4.52 µs; ${W3}; 1.56x B1 in load-tests/README.md Current figures (uWS, Node 20)`,
  },
  gatewayUsPerTypingFrame: {
    value: 8.8,
    unit: 'gateway CPU-µs per typing frame written',
    kind: 'assumed',
    source: 'what a chat delivery costs (W2 prints it; no run recorded)',
  },
  gatewayUsPerEventRead: {
    value: 30,
    unit: 'gateway CPU-µs per event read (Kafka record or Redis signal), local sockets or not',
    kind: 'assumed',
    source: 'decode, open the sealed payload, schema check, adapter lookup; never measured apart',
  },
  gatewayIdleUsPerConnection: {
    value: 15,
    unit: 'gateway CPU-µs per second per idle joined socket',
    kind: 'measured',
    source:
      'idle.ts, 1,000 joined sockets over 2 gateways: 0.73-0.78 % of a core per 500 (docs/decisions/2026-11-27-memory-reducer-off.md); the whole process over its sockets, an upper bound',
  },
  gatewayRssKbPerConnection: {
    value: 18.7,
    unit: 'KB of gateway RSS per idle connection',
    kind: 'measured',
    source: 'k6 W1 distributed, 2026-11-27 (load-tests/README.md Current figures); 14.8 KB in another run',
  },
  gatewayBaseRssMb: {
    value: 150,
    unit: 'MB of gateway RSS before its sockets',
    kind: 'measured',
    source: 'gateways 149-152 MB after 1,000 joins (docs/decisions/2026-11-27-memory-reducer-off.md)',
  },
  ingressUsPerFrame: {
    value: 11.1,
    unit: 'nginx CPU-µs per frame relayed',
    kind: 'measured',
    source: `nginx's CPU / frames delivered; ${W3}`,
  },
  messagingMsPerMessage: {
    value: 2.77,
    unit: 'messaging CPU-ms per message',
    kind: 'measured',
    source: `3.01 µs per delivery x 1,000 deliveries per message, less its idle 0.60 % of a core over 25 messages/s (0.24 ms; docs/decisions/2026-11-27-memory-reducer-off.md); ${W3}`,
  },
  postgresMsPerMessage: {
    value: 2.22,
    unit: 'PostgreSQL CPU-ms per message',
    kind: 'measured',
    source: `2.22 µs per delivery x 1,000 (its idle share, not measured apart, included); ${W3}`,
  },
  adminMsPerMessage: {
    value: 1.48,
    unit: 'admin-analytics CPU-ms per message',
    kind: 'measured',
    source: `1.65 µs per delivery x 1,000, less its idle 0.42 % over 25 messages/s (0.17 ms); ${W3}`,
  },
  kafkaUsPerRecordCopy: {
    value: 2,
    unit: 'broker CPU-µs per record appended, and per record fetched by each consumer group',
    kind: 'assumed',
    source:
      'appends: 2 µs per batched append (npm run bench:appends, docs/decisions/2026-11-27-scale-out-inputs-measured-since.md); a fetched record assumed the same. Unbatched (W3 at 25/s, one record per fetch, 5 groups) the broker spent 3.23 ms per message',
  },
  presenceMsPerTypingEvent: {
    value: 0.2,
    unit: 'presence CPU-ms per typing event',
    kind: 'assumed',
    source: "the internal HTTP hop and the event's Redis commands; not measured",
  },
  roomMsPerJoin: {
    value: 0.39,
    unit: 'room CPU-ms per join',
    kind: 'measured',
    source:
      'a join round of 1,000 sockets cost room 0.26-0.39 s of CPU (docs/decisions/2026-11-27-scale-out-inputs-measured-since.md, session 22)',
  },
  reconnectWindowS: {
    value: 10,
    unit: "s in which a lost gateway replica's users rejoin",
    kind: 'assumed',
    source: 'W5 (docs/product/performance.md)',
  },
  redisCallsPerConnectionHeartbeat: {
    value: 3,
    unit: 'Redis calls per connection per heartbeat',
    kind: 'measured',
    source: 'docs/decisions/2026-11-23-idle-cpu-timers.md (counted in the code)',
  },
  redisCallsPerUserHeartbeat: {
    value: 2,
    unit: 'Redis calls per user per heartbeat (status, TTL renewal)',
    kind: 'configured',
    source: 'docs/decisions/2026-11-27-scale-out-inputs-measured-since.md (what the code does)',
  },
  redisCallsPerRoomHeartbeat: {
    value: 2,
    unit: "Redis calls per room per heartbeat (the room's presence keys' TTLs)",
    kind: 'configured',
    source: 'the same',
  },
  heartbeatS: {
    value: HEARTBEAT_MS / 1000,
    unit: 's between presence heartbeats',
    kind: 'configured',
    source: 'HEARTBEAT_MS, services/gateway/src/presence-heartbeat.ts',
  },
  redisCallsPerTypingEvent: {
    value: 3,
    unit: 'Redis commands per typing event (entry with TTL, publish, rate limit)',
    kind: 'assumed',
    source: 'not measured',
  },
  redisCallsPerSend: { value: 2, unit: 'Redis rate-limit commands per send', kind: 'assumed', source: 'not measured' },
  // Capacity of one unit
  coreBudget: {
    value: 0.7,
    unit: 'cores one Node process is planned at',
    kind: 'assumed',
    source: "one event loop; the chart's 70 % HPA target of a 1-CPU request",
  },
  partitionRecordsBudget: {
    value: 1000,
    unit: 'records/s one partition is planned at',
    kind: 'assumed',
    source: "one consumer per partition per group applies them (a projection's batch per fetch); not measured",
  },
  partitionMbBudget: {
    value: 1,
    unit: 'MB/s in one partition is planned at',
    kind: 'assumed',
    source: 'the same',
  },
  redisOpsBudget: {
    value: 100_000,
    unit: 'commands + pub/sub messages out per second, one Redis instance',
    kind: 'assumed',
    source: 'one thread per instance; not measured here',
  },
  postgresCoresBudget: {
    value: 32,
    unit: 'cores of one PostgreSQL primary',
    kind: 'assumed',
    source: 'a large single instance; not measured',
  },
  // What the code and the chart set
  typersShown: {
    value: BIG_ROOM.typersShown,
    unit: 'typers forwarded per public channel in a big room',
    kind: 'configured',
    source: 'BIG_ROOM.typersShown, proto/src/limits.ts (docs/architecture.md Big rooms)',
  },
  coalesceFromSockets: {
    value: BIG_ROOM.coalesceFromSockets,
    unit: 'sockets of a room on one gateway from which its typing is capped and presence batched',
    kind: 'configured',
    source: 'BIG_ROOM.coalesceFromSockets, proto/src/limits.ts (a deployment may set BIG_ROOM_SOCKETS)',
  },
  coalesceWindowMs: {
    value: BIG_ROOM.coalesceWindowMs,
    unit: "ms of a big room's window (at most one counted-typers frame per window)",
    kind: 'configured',
    source: 'BIG_ROOM.coalesceWindowMs, proto/src/limits.ts',
  },
  gatewayMemoryLimitMb: {
    value: 1024,
    unit: 'MB memory limit of a gateway',
    kind: 'configured',
    source: 'charts/ephemera/ci/production-values.yaml (values.yaml: 512Mi)',
  },
  gatewayHpaMax: {
    value: 20,
    unit: 'gateway replicas at most',
    kind: 'configured',
    source: 'charts/ephemera/ci/production-values.yaml (values.yaml: 10)',
  },
  consumerGroupsBesideGateways: {
    value: 3,
    unit: 'consumer groups reading the topics besides the gateways (messaging-projection, admin-analytics, room-dm-policy)',
    kind: 'configured',
    source: 'docs/architecture.md',
  },
} satisfies Record<string, Input>;

export type Inputs = { [K in keyof typeof INPUTS]: number };

/** The values alone, optionally overridden (tests, what-ifs). */
export function inputValues(overrides: Partial<Inputs> = {}): Inputs {
  const values = Object.fromEntries(Object.entries(INPUTS).map(([k, v]) => [k, v.value])) as Inputs;
  return { ...values, ...overrides };
}
