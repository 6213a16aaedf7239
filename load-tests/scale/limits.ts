/**
 * Where the topology runs out first (docs/scale-out.md "Where it breaks first"): for each limit, the most concurrent
 * users it allows at the scenario's room size. Costs grow in proportion to the users except the gateways' (the typing cap
 * depends on how many sockets of a room one replica holds), which are searched.
 */
import type { Inputs } from './inputs.ts';
import { gatewayPlan, project, type Scenario } from './model.ts';

export interface Limit {
  name: string;
  /**
   * What lifts it (docs/scale-out.md "What would change the picture"): `setting`, a value of the chart; `sharding`,
   * running the service as one shard per set of partitions (code to write, then replicas); `design`, a change of how
   * it works.
   */
  kind: 'setting' | 'sharding' | 'design';
  /** concurrent users at which the limit is reached (0: at any scale, Infinity: never) */
  ceiling: number;
}

/** The most users (to 0.1 %) for which `fits` holds, `fits` being monotone. */
function searchUsers(roomSize: number, fits: (users: number) => boolean): number {
  let lo = roomSize;
  if (!fits(lo)) return 0;
  let hi = lo * 2;
  while (fits(hi)) {
    lo = hi;
    hi *= 2;
    if (hi > 1e10) return Infinity;
  }
  while (hi - lo > Math.max(1, lo * 0.001)) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

export function limits(s: Scenario, i: Inputs): Limit[] {
  const p = project(s, i);
  const linear = (cost: number, budget: number) => (cost <= 0 ? Infinity : (s.users * budget) / cost);
  const at = (users: number) => ({ ...s, users });
  const found: Limit[] = [
    {
      kind: 'design',
      name: "one room's writer (one partition, one messaging process)",
      ceiling: p.roomWriterCores > i.coreBudget ? 0 : Infinity,
    },
    {
      kind: 'sharding',
      name: 'messaging: one replica (one writer per room; the schema allows no second)',
      ceiling: linear(p.cores.messaging, i.coreBudget),
    },
    { kind: 'sharding', name: 'admin-analytics: one replica', ceiling: linear(p.cores.admin, i.coreBudget) },
    {
      kind: 'setting',
      name: `gateways: the HPA's ${i.gatewayHpaMax} replicas`,
      ceiling: searchUsers(s.roomSize, (u) => gatewayPlan(at(u), i).replicas <= i.gatewayHpaMax),
    },
    {
      kind: 'design',
      name: 'gateways: reading every event fills a replica',
      ceiling: linear(p.gateway.readCoresPerReplica, i.coreBudget),
    },
    {
      kind: 'design',
      name: 'Redis: one instance (one pub/sub channel for every gateway)',
      ceiling: searchUsers(s.roomSize, (u) => project(at(u), i).redis.instances <= 1),
    },
    { kind: 'design', name: 'PostgreSQL: one primary', ceiling: linear(p.cores.postgres, i.postgresCoresBudget) },
  ];
  return found.sort((a, b) => a.ceiling - b.ceiling);
}
