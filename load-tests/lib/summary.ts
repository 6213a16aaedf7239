/**
 * The summary of a run: each target's line (target-summary.ts), the ratios between targets (capacity, CPU per
 * delivery, joins/s), the CPU ratios at every rate both targets ran, the performance method's targets marked
 * PASS/FAIL, and what the distributed capacity target asks of the machine (capacity.ts). report.ts prints it.
 */
import { capacityNeeds, ingressFloor, type CapacityNeeds, type IngressFloor } from './capacity.ts';
import type { StepFigures } from './step-figures.ts';
import { targetSummaries, type TargetSummary } from './target-summary.ts';

export interface Summary {
  boundMs: number;
  commonRate: number | null;
  targets: TargetSummary[];
  ratios: Record<string, number | null>;
  /** server CPU-µs per delivery ratios at every rate both targets ran */
  cpuRatiosByRate: Record<string, Record<string, number | null>>;
  checks: { figure: string; value: number | null; target: string; pass: boolean | null }[];
  /** what the distributed capacity target asks of this machine's cores (capacityNeeds) */
  distributedNeeds: CapacityNeeds | null;
  /** what B1 behind the ingress leaves of the machine for the rest of the product at that target (ingressFloor) */
  distributedRoom: IngressFloor | null;
}

export function summarize(
  byTarget: Map<string, StepFigures[]>,
  notRun: Map<string, string>,
  order: string[],
  boundMs: number,
  joinsPerS: Record<string, number[]> = {},
  cores = 2,
): Summary {
  const { rates, commonRate, targets } = targetSummaries(byTarget, notRun, order, boundMs, joinsPerS);
  const get = (t: string) => targets.find((x) => x.target === t);
  const ratio = (a?: number | null, b?: number | null) => (a && b ? a / b : null);
  const b0 = get('b0'),
    b1 = get('b1'),
    b1i = get('b1-ingress'),
    emb = get('embedded'),
    dist = get('distributed'),
    b1l4 = get('b1-l4'),
    distL4 = get('distributed-l4');
  const gatewayCpu = (s?: TargetSummary) => {
    if (!s?.cpuByProcessAtCommon) return null;
    const g = Object.entries(s.cpuByProcessAtCommon).filter(([p]) => p.startsWith('gateway'));
    return g.length ? g.reduce((a, [, v]) => a + v.perDelivery, 0) : null;
  };
  const ratios = {
    'embedded/b1 deliveries/s': ratio(emb?.capacityDeliveriesPerS, b1?.capacityDeliveriesPerS),
    'embedded/b1 cpu-us/delivery': ratio(emb?.cpuUsPerDeliveryAtCommon, b1?.cpuUsPerDeliveryAtCommon),
    'distributed/b1 deliveries/s': ratio(dist?.capacityDeliveriesPerS, b1?.capacityDeliveriesPerS),
    'distributed/b1 cpu-us/delivery (all processes)': ratio(
      dist?.cpuUsPerDeliveryAtCommon,
      b1?.cpuUsPerDeliveryAtCommon,
    ),
    'distributed/b1 gateway cpu-us/delivery': ratio(gatewayCpu(dist), b1?.cpuUsPerDeliveryAtCommon),
    'b1-ingress/b1 deliveries/s (the ingress alone)': ratio(b1i?.capacityDeliveriesPerS, b1?.capacityDeliveriesPerS),
    'b1-ingress/b1 cpu-us/delivery (the ingress alone)': ratio(
      b1i?.cpuUsPerDeliveryAtCommon,
      b1?.cpuUsPerDeliveryAtCommon,
    ),
    'distributed/b1-ingress deliveries/s': ratio(dist?.capacityDeliveriesPerS, b1i?.capacityDeliveriesPerS),
    'b1-l4/b1 cpu-us/delivery (the layer-4 entry alone)': ratio(
      b1l4?.cpuUsPerDeliveryAtCommon,
      b1?.cpuUsPerDeliveryAtCommon,
    ),
    'distributed-l4/b1-l4 cpu-us/delivery (all processes)': ratio(
      distL4?.cpuUsPerDeliveryAtCommon,
      b1l4?.cpuUsPerDeliveryAtCommon,
    ),
    'distributed-l4/distributed cpu-us/delivery (all processes)': ratio(
      distL4?.cpuUsPerDeliveryAtCommon,
      dist?.cpuUsPerDeliveryAtCommon,
    ),
    'b1/b0 deliveries/s': ratio(b1?.capacityDeliveriesPerS, b0?.capacityDeliveriesPerS),
    'b1/b0 cpu-us/delivery': ratio(b1?.cpuUsPerDeliveryAtCommon, b0?.cpuUsPerDeliveryAtCommon),
    'embedded/b1 joins/s': ratio(emb?.joinsPerS, b1?.joinsPerS),
    'distributed/b1 joins/s': ratio(dist?.joinsPerS, b1?.joinsPerS),
  };
  const check = (figure: string, value: number | null, target: string, ok: (v: number) => boolean) => ({
    figure,
    value,
    target,
    pass: value === null ? null : ok(value),
  });
  // B1 met the bound at the highest rate run: its capacity is higher than measured, so a ratio to it is an upper
  // bound. A FAIL stands (the true ratio is lower still); a PASS is not one: run higher rates.
  const againstFloor = (c: ReturnType<typeof check>) =>
    b1?.capacityIsFloor && c.pass
      ? {
          ...c,
          pass: null,
          target: `${c.target}; B1 met the bound at its highest rate, so its capacity is higher: run higher rates`,
        }
      : c;
  const checks = [
    check('W3 embedded CPU-µs/delivery vs B1', ratios['embedded/b1 cpu-us/delivery'], '<= 1.6x', (v) => v <= 1.6),
    check(
      'W3 distributed gateway CPU-µs/delivery vs B1',
      ratios['distributed/b1 gateway cpu-us/delivery'],
      '<= 1.6x',
      (v) => v <= 1.6,
    ),
    againstFloor(
      check(
        'W3 embedded deliveries/s at p99 <= bound vs B1',
        ratios['embedded/b1 deliveries/s'],
        '>= 0.6x',
        (v) => v >= 0.6,
      ),
    ),
    againstFloor(
      check(
        'W3 distributed deliveries/s at p99 <= bound vs B1',
        ratios['distributed/b1 deliveries/s'],
        '>= 0.4x',
        (v) => v >= 0.4,
      ),
    ),
    check(
      'joins/s (connect + join-workspace) embedded vs B1',
      ratios['embedded/b1 joins/s'],
      '>= 0.5x',
      (v) => v >= 0.5,
    ),
    check(
      'joins/s (connect + join-workspace) distributed vs B1',
      ratios['distributed/b1 joins/s'],
      '>= 0.5x',
      (v) => v >= 0.5,
    ),
    check(
      'joins/s (connect + join-workspace) distributed',
      dist?.joinsPerS ?? null,
      '>= 1000 (PF15)',
      (v) => v >= 1000,
    ),
  ];
  const cpuAt = (t: string, rate: number) =>
    byTarget.get(t)?.find((x) => x.rate === rate)?.serverCpuUsPerDelivery ?? null;
  const cpuRatiosByRate: Record<string, Record<string, number | null>> = {};
  for (const [a, b] of [
    ['embedded', 'b1'],
    ['distributed', 'b1'],
    ['b1-ingress', 'b1'],
    ['distributed', 'b1-ingress'],
    ['b1-l4', 'b1'],
    ['distributed-l4', 'b1-l4'],
    ['distributed-l4', 'distributed'],
    ['b1', 'b0'],
  ]) {
    const row: Record<string, number | null> = {};
    for (const r of rates) row[r] = ratio(cpuAt(a, r), cpuAt(b, r));
    if (Object.values(row).some((v) => v !== null)) cpuRatiosByRate[`${a}/${b}`] = row;
  }
  const distributedNeeds = capacityNeeds(
    byTarget.get('distributed') ?? [],
    b1?.capacityDeliveriesPerS ?? null,
    0.4,
    cores,
    boundMs,
  );
  const distributedRoom = ingressFloor(
    byTarget.get('b1-ingress') ?? [],
    byTarget.get('distributed') ?? [],
    b1?.capacityDeliveriesPerS ?? null,
    0.4,
    cores,
  );
  return { boundMs, commonRate, targets, ratios, cpuRatiosByRate, checks, distributedNeeds, distributedRoom };
}
