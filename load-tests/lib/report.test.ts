import { describe, expect, it } from 'vitest';
import { capacityNeeds, summarize, type StepFigures } from './report.ts';

/** a step at `rate` sends/s to 1000 sockets, its p99 `p99` ms, the machine's two cores `busy` % each */
const step = (rate: number, serverCpuUsPerDelivery: number, genCpuUsPerDelivery: number, p99 = 50, busy = 90) =>
  ({ rate, deliveriesPerS: rate * 1000, ratio: 1, e2eMs: { p99 }, drainTimedOut: false, serverCpuUsPerDelivery, genCpuUsPerDelivery, coreBusyPct: [busy, busy] }) as unknown as StepFigures;

describe('what a capacity target asks of the machine', () => {
  it('takes the cost per delivery at the capacity step (the highest rate within the bound), the generator included', () => {
    // 100/s meets the bound, 200/s does not (cheaper per delivery, but too late): 0.4 x 400k = 160k at (20 + 2.5) µs
    const n = capacityNeeds([step(25, 30, 4), step(100, 20, 2.5, 90, 97), step(200, 8, 2, 180, 99), step(50, 25, 3)], 400_000, 0.4, 2, 100)!;
    expect(n.atRate).toBe(100);
    expect(n.requiredPerS).toBe(160_000);
    expect(n.coresNeeded).toBeCloseTo(3.6, 9);
    expect(n.cores).toBe(2);
    expect(n.machineBusyPct).toBe(97);
    // no step within the bound: the lowest rate's cost
    expect(capacityNeeds([step(50, 25, 3, 150), step(25, 30, 4, 120)], 400_000, 0.4, 2, 100)!.atRate).toBe(25);
  });

  it('has nothing to say without B1\'s capacity or a CPU figure', () => {
    expect(capacityNeeds([step(25, 30, 4)], null, 0.4, 2, 100)).toBeNull();
    expect(capacityNeeds([], 400_000, 0.4, 2, 100)).toBeNull();
    expect(capacityNeeds([step(25, 0, 4)], 400_000, 0.4, 2, 100)).toBeNull();
  });
});

describe('capacity ratios against a baseline that never reached its bound', () => {
  const run = (rates: number[], p99: (rate: number) => number) => rates.map((r) => ({ ...step(r, 10, 3, p99(r)), serverCpuUs: {}, cpuUsPerDeliveryByProcess: {}, cpuUsPerSentByProcess: {}, cpuUsPerSentAboveIdleByProcess: {} }) as unknown as StepFigures);
  const deliveriesCheck = (b1: StepFigures[], distributed: StepFigures[]) =>
    summarize(new Map([['b1', b1], ['distributed', distributed]]), new Map(), ['b1', 'distributed'], 100).checks
      .find((c) => c.figure.startsWith('W3 distributed deliveries/s'))!;

  it('does not call a ratio a PASS when B1 met the bound at its highest rate (its capacity is higher)', () => {
    // sweep up to 100 sends/s: B1 passes all, distributed passes 50 -> 50k / 100k = 0.5, an upper bound
    const c = deliveriesCheck(run([25, 50, 100], () => 20), run([25, 50, 100], (r) => (r > 50 ? 150 : 80)));
    expect(c.value).toBeCloseTo(0.5, 9);
    expect(c.pass).toBeNull();
    expect(c.target).toContain('run higher rates');
  });

  it('keeps a FAIL against such a baseline, and a PASS against one that reached its bound', () => {
    expect(deliveriesCheck(run([25, 50, 100], () => 20), run([25, 50, 100], (r) => (r > 25 ? 150 : 80))).pass).toBe(false); // 0.25
    expect(deliveriesCheck(run([25, 50, 100, 200], (r) => (r > 100 ? 150 : 20)), run([25, 50, 100, 200], (r) => (r > 50 ? 150 : 80))).pass).toBe(true); // 0.5 of a real 100k
  });
});
