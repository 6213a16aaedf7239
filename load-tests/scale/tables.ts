/** The projection's markdown tables, as docs/scale-out.md shows them. */
import { INPUTS, type Inputs } from './inputs.ts';
import type { ScenarioResult } from './check.ts';
import type { Spread } from './simulate.ts';

/** A figure for a table: thousands separated, small ones with two decimals, Infinity as "none suffices". */
export function fmt(n: number, digits = 2): string {
  if (n === Infinity) return 'none suffices';
  if (Math.abs(n) >= 100) return Math.round(n).toLocaleString('en-US');
  return Number(n.toFixed(digits)).toLocaleString('en-US', { maximumFractionDigits: digits });
}

/** A limit's ceiling in users. */
const ceiling = (users: number) => (users === Infinity ? 'never' : users === 0 ? 'below one room' : fmt(users));
const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
const skew = (s: Spread) => (s.mean === 0 ? '-' : `${fmt(s.max)} / ${fmt(s.mean)} = ${(s.max / s.mean).toFixed(3)}`);
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

export function inputsTable(values: Inputs): string {
  const lines = [row(['input', 'value', 'unit', 'kind', 'source']), row(['---', '---', '---', '---', '---'])];
  for (const [key, input] of Object.entries(INPUTS)) {
    lines.push(row([key, fmt(values[key as keyof Inputs]), input.unit, input.kind, input.source]));
  }
  return lines.join('\n');
}

export function summaryTable(results: ScenarioResult[]): string {
  const lines = [
    row([
      'scenario',
      'rooms',
      'frames/s to sockets',
      'gateways (busiest paced)',
      'ingress cores',
      'messaging shards',
      'partitions (busiest paced)',
      'Redis',
      'first limit (users)',
      'first design limit (users)',
    ]),
    row(['---', '---', '---', '---', '---', '---', '---', '---', '---', '---']),
  ];
  for (const r of results) {
    const p = r.projection;
    const first = r.limits[0]!;
    const design = r.limits.find((l) => l.kind === 'design');
    lines.push(
      row([
        `${fmt(p.scenario.users)} users, rooms of ${fmt(p.scenario.roomSize)}`,
        fmt(p.totals.rooms),
        fmt(p.totals.deliveries + r.gateways.typingFrames.total),
        `${fmt(p.replicas.gateway)} (${r.paced ? fmt(r.paced.replicas) : '-'})`,
        fmt(p.cores.ingress),
        fmt(p.replicas.messaging),
        `${fmt(p.kafka.partitions)} (${r.partitionsPaced ? fmt(r.partitionsPaced.partitions) : 'none suffices'})`,
        `${fmt(p.redis.instances)} (${fmt(p.redis.ops)} ops/s)`,
        `${first.name} (${ceiling(first.ceiling)})`,
        design ? `${design.name} (${ceiling(design.ceiling)})` : '-',
      ]),
    );
  }
  return lines.join('\n');
}

export function scenarioTables(r: ScenarioResult, i: Inputs): string {
  const p = r.projection;
  const t = p.totals;
  const n = p.replicas.gateway;
  const out: string[] = [];
  out.push(`### ${fmt(p.scenario.users)} users in rooms of ${fmt(p.scenario.roomSize)} (${p.scenario.name})`, '');
  out.push(
    `Load: ${fmt(t.rooms)} rooms, ${fmt(t.connections)} connections, ${fmt(t.messages)} messages/s, ` +
      `${fmt(t.deliveries)} deliveries/s, ${fmt(t.typingEvents)} typing events/s, ${fmt(r.gateways.typingFrames.total)} ` +
      `typing frames/s (at ${fmt(p.gatewaysPriced)} gateways), ${fmt(t.records)} Kafka records/s (${fmt(t.recordsMb)} MB/s).`,
    '',
  );
  const rows: [string, string, string, string][] = [
    [
      'gateway',
      fmt(p.cores.gateway),
      fmt(n),
      `each reads ${fmt(t.records + t.typingEvents)} events/s = ${fmt(p.gateway.readCoresPerReplica)} core; ` +
        `${fmt(p.gatewayRssMb)} MB RSS each (limit ${fmt(i.gatewayMemoryLimitMb)})`,
    ],
    ['ingress (nginx)', fmt(p.cores.ingress), fmt(p.replicas.ingress), 'every frame crosses it'],
    [
      'messaging',
      fmt(p.cores.messaging),
      fmt(p.replicas.messaging),
      `one room's writer ${fmt(p.roomWriterCores, 3)} core${p.roomWriterCores > i.coreBudget ? ': MORE THAN ONE PROCESS' : ''}`,
    ],
    ['admin-analytics', fmt(p.cores.admin), fmt(p.replicas.admin), 'one consumer per partition at most'],
    ['presence', fmt(p.cores.presence), fmt(p.replicas.presence), 'typing events'],
    ['room', fmt(p.cores.room), fmt(p.replicas.room), "one gateway replica's users rejoining"],
    [
      'Kafka',
      fmt(p.cores.kafka),
      `${fmt(p.kafka.partitions)} partitions`,
      `${fmt(t.records / p.kafka.partitions)} records/s and ${fmt(t.recordsMb / p.kafka.partitions, 3)} MB/s per partition; ` +
        `egress ${fmt(p.kafka.egressMb)} MB/s (${fmt(p.kafka.groups)} consumer groups)`,
    ],
    ['PostgreSQL', fmt(p.cores.postgres), '1 primary', `budget ${fmt(i.postgresCoresBudget)} cores`],
    [
      'Redis',
      '-',
      `${fmt(p.redis.instances)} instances`,
      `${fmt(p.redis.ops)} ops/s, of which ${fmt(p.redis.pubsubOut)} pub/sub messages out`,
    ],
  ];
  out.push(
    row(['process', 'cores', `replicas at ${i.coreBudget} core`, 'what sets it']),
    row(['---', '---', '---', '---']),
  );
  for (const cells of rows) out.push(row(cells));
  out.push(
    '',
    `Gateways if each read only the events of rooms it holds a socket of: ${fmt(r.filtered.random)} replicas ` +
      `(connections balanced at random), ${fmt(r.filtered.byRoom)} (connections routed by room).`,
    '',
  );
  out.push(
    row(['limit', 'lifted by', 'reached at (users)', `at ${fmt(p.scenario.users)}`]),
    row(['---', '---', '---', '---']),
  );
  for (const l of r.limits) {
    out.push(row([l.name, l.kind, ceiling(l.ceiling), l.ceiling < p.scenario.users ? 'EXCEEDED' : 'holds']));
  }
  out.push('', simulationTable(r, i));
  return out.join('\n');
}

function simulationTable(r: ScenarioResult, i: Inputs): string {
  const g = r.gateways;
  const part = r.partitions;
  const out = [
    `Simulation (seeded): ${fmt(g.replicas)} gateway replicas, ${fmt(part.partitions)} partitions. Skew is max / mean.`,
    '',
    row(['figure', 'max / mean', '']),
    row(['---', '---', '---']),
    row(['connections per gateway', skew(g.connections), '']),
    row(['deliveries/s per gateway', skew(g.deliveries), '']),
    row(['typing frames/s per gateway', skew(g.typingFrames), '']),
    row(['cores per gateway (reading included)', skew(g.cores), `budget ${i.coreBudget}`]),
    row(['events/s of rooms it holds a socket of', skew(g.eventsOfHeldRooms), `of ${fmt(g.readPerReplica)} read`]),
    row(['records/s per partition', skew(part.records), `${fmt(part.empty)} partitions empty`]),
    row([
      "busiest partition's messaging writer",
      `${fmt(part.busiestWriterCores, 3)} core`,
      part.shards === null ? 'no shard count fits' : `${fmt(part.shards)} shards fit its busiest`,
    ]),
    row([
      'partitions when the busiest sets the pace',
      r.partitionsPaced ? fmt(r.partitionsPaced.partitions) : 'none suffices (one room is more than one process)',
      r.partitionsPaced ? `${fmt(r.partitionsPaced.shards ?? 0)} messaging shards` : '',
    ]),
    row([
      'gateways when the busiest sets the pace',
      r.paced ? fmt(r.paced.replicas) : 'none suffices',
      r.paced ? `busiest ${fmt(r.paced.cores.max, 3)} core` : '',
    ]),
    '',
    row(['total', 'closed form', 'simulated', 'difference']),
    row(['---', '---', '---', '---']),
    ...r.agreement.map((a) => row([a.figure, fmt(a.closedForm), fmt(a.simulated), pct(a.difference)])),
  ];
  return out.join('\n');
}
