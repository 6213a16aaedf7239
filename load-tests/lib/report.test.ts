import { describe, expect, it } from 'vitest';
import { capacityNeeds, type StepFigures } from './report.ts';

const step = (rate: number, serverCpuUsPerDelivery: number, genCpuUsPerDelivery: number) =>
  ({ rate, serverCpuUsPerDelivery, genCpuUsPerDelivery }) as StepFigures;

describe('what a capacity target asks of the machine', () => {
  it('takes the cost per delivery at the highest rate run, the generator included', () => {
    // 0.4 x 400k = 160k deliveries/s at (20 + 2.5) µs each = 3.6 cores
    const n = capacityNeeds([step(25, 30, 4), step(100, 20, 2.5), step(50, 25, 3)], 400_000, 0.4, 2)!;
    expect(n.atRate).toBe(100);
    expect(n.requiredPerS).toBe(160_000);
    expect(n.coresNeeded).toBeCloseTo(3.6, 9);
    expect(n.cores).toBe(2);
  });

  it('has nothing to say without B1\'s capacity or a CPU figure', () => {
    expect(capacityNeeds([step(25, 30, 4)], null, 0.4, 2)).toBeNull();
    expect(capacityNeeds([], 400_000, 0.4, 2)).toBeNull();
    expect(capacityNeeds([step(25, 0, 4)], 400_000, 0.4, 2)).toBeNull();
  });
});
