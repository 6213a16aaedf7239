/**
 * Each target's line of the summary: its capacity, and its CPU per delivery and ack p99 at the common rate (the
 * highest rate every target that ran passed at). summary.ts compares targets by these.
 */
import { median } from './stats.ts';
import { capacityStep, passes } from './capacity.ts';
import type { StepFigures } from './step-figures.ts';

export interface TargetSummary {
  target: string;
  ran: boolean;
  why?: string;
  capacityDeliveriesPerS: number | null; // highest deliveries/s with p99 <= bound and ratio 1
  capacityAtRate: number | null;
  /** it met the bound at the highest rate run: its capacity is at least that, not that (a ratio to it is an upper bound) */
  capacityIsFloor: boolean;
  cpuUsPerDeliveryAtCommon: number | null;
  cpuByProcessAtCommon: Record<string, { perDelivery: number; perSent: number; perSentAboveIdle: number }> | null;
  ackP99AtCommon: number | null;
  /** median over repetitions of sockets' connect + join per second (the generator's setup) */
  joinsPerS: number | null;
}

/** The rates the targets ran, the common rate, and each target's summary (in `order`; a target that did not run says why). */
export function targetSummaries(
  byTarget: Map<string, StepFigures[]>,
  notRun: Map<string, string>,
  order: string[],
  boundMs: number,
  joinsPerS: Record<string, number[]>,
): { rates: number[]; commonRate: number | null; targets: TargetSummary[] } {
  const ran = order.filter((t) => byTarget.get(t)?.length);
  // the common rate: the highest rate every target that ran passed at; else the lowest rate they all reached
  const passing = ran.map(
    (t) =>
      new Set(
        byTarget
          .get(t)!
          .filter((s) => passes(s, boundMs))
          .map((s) => s.rate),
      ),
  );
  const reached = ran.map((t) => new Set(byTarget.get(t)!.map((s) => s.rate)));
  const rates = [...new Set(ran.flatMap((t) => byTarget.get(t)!.map((s) => s.rate)))].sort((a, b) => a - b);
  const commonPass = rates.filter((r) => passing.every((p) => p.has(r)));
  const commonReach = rates.filter((r) => reached.every((p) => p.has(r)));
  const commonRate = commonPass.length ? commonPass[commonPass.length - 1] : (commonReach[0] ?? null);

  const targets: TargetSummary[] = order.map((t) => {
    const steps = byTarget.get(t) ?? [];
    if (!steps.length)
      return {
        target: t,
        ran: false,
        why: notRun.get(t) ?? 'not run',
        capacityDeliveriesPerS: null,
        capacityAtRate: null,
        capacityIsFloor: false,
        cpuUsPerDeliveryAtCommon: null,
        cpuByProcessAtCommon: null,
        ackP99AtCommon: null,
        joinsPerS: null,
      };
    const best = capacityStep(steps, boundMs);
    const at = steps.find((s) => s.rate === commonRate);
    return {
      target: t,
      ran: true,
      capacityDeliveriesPerS: best ? best.deliveriesPerS : null,
      capacityAtRate: best ? best.rate : null,
      capacityIsFloor: best !== undefined && best.rate === Math.max(...steps.map((x) => x.rate)),
      cpuUsPerDeliveryAtCommon: at ? at.serverCpuUsPerDelivery : null,
      cpuByProcessAtCommon: at
        ? Object.fromEntries(
            Object.keys(at.serverCpuUs).map((p) => [
              p,
              {
                perDelivery: at.cpuUsPerDeliveryByProcess[p],
                perSent: at.cpuUsPerSentByProcess[p],
                perSentAboveIdle: at.cpuUsPerSentAboveIdleByProcess[p],
              },
            ]),
          )
        : null,
      ackP99AtCommon: at?.ackMs ? at.ackMs.p99 : null,
      joinsPerS: joinsPerS[t]?.length ? median(joinsPerS[t]) : null,
    };
  });
  return { rates, commonRate, targets };
}
