import { describe, expect, it } from 'vitest';
import { capacityNeeds, ingressFloor } from './capacity.ts';
import { summaryText } from './report.ts';
import type { StepFigures } from './step-figures.ts';
import { summarize } from './summary.ts';

/** a step at `rate` sends/s to 1000 sockets, its p99 `p99` ms, the machine's two cores `busy` % each */
const step = (rate: number, serverCpuUsPerDelivery: number, genCpuUsPerDelivery: number, p99 = 50, busy = 90) =>
  ({
    rate,
    deliveriesPerS: rate * 1000,
    ratio: 1,
    e2eMs: { p99 },
    drainTimedOut: false,
    serverCpuUsPerDelivery,
    genCpuUsPerDelivery,
    coreBusyPct: [busy, busy],
  }) as unknown as StepFigures;

describe('what a capacity target asks of the machine', () => {
  it('takes the cost per delivery at the capacity step (the highest rate within the bound), the generator included', () => {
    // 100/s meets the bound, 200/s does not (cheaper per delivery, but too late): 0.4 x 400k = 160k at (20 + 2.5) µs
    const n = capacityNeeds(
      [step(25, 30, 4), step(100, 20, 2.5, 90, 97), step(200, 8, 2, 180, 99), step(50, 25, 3)],
      400_000,
      0.4,
      2,
      100,
    )!;
    expect(n.atRate).toBe(100);
    expect(n.requiredPerS).toBe(160_000);
    expect(n.coresNeeded).toBeCloseTo(3.6, 9);
    expect(n.cores).toBe(2);
    expect(n.machineBusyPct).toBe(97);
    // no step within the bound: the lowest rate's cost
    expect(capacityNeeds([step(50, 25, 3, 150), step(25, 30, 4, 120)], 400_000, 0.4, 2, 100)!.atRate).toBe(25);
  });

  it("has nothing to say without B1's capacity or a CPU figure", () => {
    expect(capacityNeeds([step(25, 30, 4)], null, 0.4, 2, 100)).toBeNull();
    expect(capacityNeeds([], 400_000, 0.4, 2, 100)).toBeNull();
    expect(capacityNeeds([step(25, 0, 4)], 400_000, 0.4, 2, 100)).toBeNull();
  });
});

describe('what B1 behind the ingress leaves for the product', () => {
  // a run of 2026-11-27 (docs/decisions/2026-11-27-distributed-capacity-on-two-cores.md): B1 behind nginx at 160
  // sends/s 6.34 µs + the generator's 3.63; the stack 9.38 at that rate
  const ingress = [step(100, 9.84, 5.95, 44), step(160, 6.34, 3.63, 47.7), step(200, 5, 3, 60)];
  const distributed = [step(100, 15.15, 4.15, 132.6), step(160, 9.38, 2.82, 136.7)];

  it('takes the lowest rate reaching the fraction of B1, and what is left of the machine there', () => {
    const r = ingressFloor(ingress, distributed, 400_000, 0.4, 2)!;
    expect(r.rate).toBe(160);
    expect(r.floorCores).toBeCloseTo(1.0144, 9);
    expect(r.genCores).toBeCloseTo(0.5808, 9);
    expect(r.leftCores).toBeCloseTo(0.4048, 9);
    expect(r.leftUsPerDelivery).toBeCloseTo(2.53, 9);
    expect(r.productAddsUsPerDelivery).toBeCloseTo(3.04, 9);
    expect(r.p99Ms).toBe(47.7);
    // a smaller B1 capacity: the 100/s step already reaches 0.4x of 250k
    expect(ingressFloor(ingress, distributed, 250_000, 0.4, 2)!.rate).toBe(100);
  });

  it('is printed, and says so when the product adds more than is left', () => {
    const b1 = [step(100, 4.4, 6.6, 8.5), step(400, 2, 2.5, 19)];
    const byTarget = new Map(
      Object.entries({ b1, 'b1-ingress': ingress, distributed }).map(([t, steps]) => [
        t,
        steps.map(
          (x) =>
            ({
              ...x,
              target: t,
              serverCpuUs: {},
              cpuUsPerDeliveryByProcess: {},
              cpuUsPerSentByProcess: {},
              cpuUsPerSentAboveIdleByProcess: {},
            }) as StepFigures,
        ),
      ]),
    );
    const text = summaryText(summarize(byTarget, new Map(), ['b1', 'b1-ingress', 'distributed'], 100));
    expect(text).toMatch(
      /leaves for the product at 160 sends\/s .* 0\.40 cores left, 2\.53 µs per delivery .* added 3\.04 µs per delivery at that rate \(more than is left: out of reach here\)/,
    );
  });

  it("has nothing to say without B1's capacity or an ingress step that reaches it; no comparison without the stack at that rate", () => {
    expect(ingressFloor(ingress, distributed, null, 0.4, 2)).toBeNull();
    expect(ingressFloor(ingress, distributed, 1_000_000, 0.4, 2)).toBeNull();
    expect(ingressFloor(ingress, [step(100, 15, 4)], 400_000, 0.4, 2)!.productAddsUsPerDelivery).toBeNull();
  });
});

describe('capacity ratios against a baseline that never reached its bound', () => {
  const run = (rates: number[], p99: (rate: number) => number) =>
    rates.map(
      (r) =>
        ({
          ...step(r, 10, 3, p99(r)),
          serverCpuUs: {},
          cpuUsPerDeliveryByProcess: {},
          cpuUsPerSentByProcess: {},
          cpuUsPerSentAboveIdleByProcess: {},
        }) as unknown as StepFigures,
    );
  const deliveriesCheck = (b1: StepFigures[], distributed: StepFigures[]) =>
    summarize(
      new Map([
        ['b1', b1],
        ['distributed', distributed],
      ]),
      new Map(),
      ['b1', 'distributed'],
      100,
    ).checks.find((c) => c.figure.startsWith('W3 distributed deliveries/s'))!;

  it('does not call a ratio a PASS when B1 met the bound at its highest rate (its capacity is higher)', () => {
    // sweep up to 100 sends/s: B1 passes all, distributed passes 50 -> 50k / 100k = 0.5, an upper bound
    const c = deliveriesCheck(
      run([25, 50, 100], () => 20),
      run([25, 50, 100], (r) => (r > 50 ? 150 : 80)),
    );
    expect(c.value).toBeCloseTo(0.5, 9);
    expect(c.pass).toBeNull();
    expect(c.target).toContain('run higher rates');
  });

  it('keeps a FAIL against such a baseline, and a PASS against one that reached its bound', () => {
    expect(
      deliveriesCheck(
        run([25, 50, 100], () => 20),
        run([25, 50, 100], (r) => (r > 25 ? 150 : 80)),
      ).pass,
    ).toBe(false); // 0.25
    expect(
      deliveriesCheck(
        run([25, 50, 100, 200], (r) => (r > 100 ? 150 : 20)),
        run([25, 50, 100, 200], (r) => (r > 50 ? 150 : 80)),
      ).pass,
    ).toBe(true); // 0.5 of a real 100k
  });
});
