import { describe, expect, it } from 'vitest';
import { Histogram } from './stats.ts';
import type { StepResult } from '../generator/protocol.ts';
import { medianStep, stepFigures, type StepFigures } from './step-figures.ts';
import { stepLine, summaryText } from './report.ts';
import { summarize } from './summary.ts';

// What `npm run bench` prints at its end, from a small fixed run built as run.ts builds it: the worker's step
// results through stepFigures, medians over repetitions per target and rate, then summarize and summaryText.

const CONNECTIONS = 1000;
const WINDOW_MS = 10_000;

/** 100 samples of `ms` (the last one `maxMs`), in microseconds as the worker records them */
function hist(ms: number, maxMs = ms): StepResult['e2e'] {
  const h = new Histogram();
  for (let i = 0; i < 99; i++) h.record(ms * 1000);
  h.record(maxMs * 1000);
  return h.toJSON();
}

/** one step at `rate` sends/s: every message delivered to every socket, e2e p99 `p99Ms` */
function result(rate: number, p99Ms: number, ackMs: number | null): StepResult {
  const sent = rate * (WINDOW_MS / 1000);
  return {
    step: 0,
    rate,
    connections: CONNECTIONS,
    sent,
    expected: sent * CONNECTIONS,
    received: sent * CONNECTIONS,
    windowMs: WINDOW_MS,
    receivedInWindow: sent * CONNECTIONS,
    e2e: hist(p99Ms, p99Ms * 2),
    fanout: hist(p99Ms / 2),
    ack: ackMs === null ? new Histogram().toJSON() : hist(ackMs),
    ackErrors: 0,
    ackFirstError: null,
    genCpuUs: 2 * sent * CONNECTIONS, // 2 µs per delivery
    genCpuSysUs: sent * CONNECTIONS,
    drainMs: 5,
    drainTimedOut: false,
  };
}

/** the server CPU of a step as `µs per delivery` per process */
const cpu = (rate: number, perDelivery: Record<string, number>) =>
  Object.fromEntries(Object.entries(perDelivery).map(([p, us]) => [p, us * rate * (WINDOW_MS / 1000) * CONNECTIONS]));

function run() {
  const raw: StepFigures[] = [];
  const step = (
    target: string,
    rep: number,
    rate: number,
    p99: number,
    ack: number | null,
    us: Record<string, number>,
  ) => raw.push(stepFigures(target, rep, result(rate, p99, ack), cpu(rate, us), [60, 70]));
  // B1, two repetitions: 4 and 6 µs per delivery, median 5; within the bound at every rate
  for (const rep of [1, 2]) for (const rate of [25, 50, 100]) step('b1', rep, rate, 20, null, { node: 2 + 2 * rep });
  // embedded: over the bound at 100 sends/s
  for (const rate of [25, 50, 100]) step('embedded', 1, rate, rate === 100 ? 150 : 30, 3, { node: 8 });
  // distributed: over the bound at 50 sends/s; three processes
  for (const rate of [25, 50])
    step('distributed', 1, rate, rate === 50 ? 200 : 60, 12, { 'gateway-1': 3, 'gateway-2': 4, messaging: 10 });
  const order = ['b0', 'b1', 'embedded', 'distributed'];
  const byTarget = new Map<string, StepFigures[]>();
  for (const name of order) {
    const steps = raw.filter((s) => s.target === name);
    const rates = [...new Set(steps.map((s) => s.rate))].sort((a, b) => a - b);
    byTarget.set(
      name,
      rates.map((r) => medianStep(steps.filter((s) => s.rate === r))),
    );
  }
  const notRun = new Map([['b0', 'uWS does not load here\n(the reason)']]);
  const joins = { b1: [6000], embedded: [3000, 3400], distributed: [1200] };
  return { raw, byTarget, summary: summarize(byTarget, notRun, order, 100, joins, 2) };
}

describe('the printed summary of a W3 run', () => {
  const { raw, byTarget, summary } = run();
  const text = summaryText(summary);
  const lines = text.split('\n');

  it('prints one line per step with its figures', () => {
    const line = stepLine(raw.find((s) => s.target === 'embedded' && s.rate === 50)!);
    expect(line).toMatch(/^ {4}50\/s {2}deliv\/s {2}50\.0k \(offered 50\.0k\) {2}ratio 1\.0000 {2}e2e ms p50 30\.\d+ /);
    expect(line).toContain('server 8.00 µs/deliv (40% core)');
    expect(line).toContain('gen 2.00 µs/deliv (10% core, 50% of it kernel)  others 80% NOISY');
    expect(line).toMatch(/ack p50 3\.\d+ p99 3\.\d+/);
    // the median over B1's two repetitions
    expect(stepLine(byTarget.get('b1')![0])).toContain('server 5.00 µs/deliv');
  });

  it('names the common rate, then each target: capacity, its rate, CPU at the common rate, ack p99, joins/s', () => {
    expect(lines[0]).toBe(
      'Summary (capacity = highest deliveries/s with e2e p99 <= 100 ms and ratio 1.0; CPU at the common rate 25 sends/s)',
    );
    expect(lines).toContain('  b0           NOT RUN: uWS does not load here');
    expect(lines.find((l) => l.startsWith('  b1 '))).toMatch(/^ {2}b1 +100\.0k +100 +5\.00 +- +6000$/);
    expect(lines.find((l) => l.startsWith('  embedded '))).toMatch(/^ {2}embedded +50\.0k +50 +8\.00 +3\.\d\d +3200$/);
    expect(lines.find((l) => l.startsWith('  distributed '))).toMatch(
      /^ {2}distributed +25\.0k +25 +17\.00 +12\.\d\d +1200$/,
    );
    // distributed's processes, per delivery and per sent message (1000 deliveries each)
    expect(lines).toContain(
      '      gateway-1                3.000 µs/delivery    3000 µs/sent message (3000 above idle)',
    );
    expect(lines).toContain(
      '      messaging                10.000 µs/delivery   10000 µs/sent message (10000 above idle)',
    );
  });

  it('prints the ratios, the CPU ratios by rate and the targets with PASS and FAIL', () => {
    const ratio = (name: string) =>
      lines
        .find((l) => l.startsWith(`    ${name} `))
        ?.trim()
        .split(/ +/)
        .pop();
    expect(ratio('embedded/b1 deliveries/s')).toBe('0.50');
    expect(ratio('embedded/b1 cpu-us/delivery')).toBe('1.60');
    expect(ratio('distributed/b1 gateway cpu-us/delivery')).toBe('1.40');
    expect(ratio('b1/b0 deliveries/s')).toBe('-');
    expect(ratio('embedded/b1 joins/s')).toBe('0.53');
    expect(lines).toContain('  server CPU-µs/delivery ratio by rate (sends/s: 25, 50, 100):');
    expect(lines).toContain('    embedded/b1        1.60   1.60   1.60');
    expect(lines).toContain('    distributed/b1     3.40   3.40      -');
    expect(text).toMatch(
      /what the distributed capacity target asks of this machine: 0\.4x B1 = 40\.0k deliveries\/s at 17\.0 µs .* \+ 2\.0 µs \(the generator\) per delivery, as measured at its capacity step \(25 sends\/s, the machine's cores 65% busy\): 0\.8 cores of CPU; this machine has 2; B1 met the bound at its highest rate/,
    );
    const check = (figure: string) => lines.find((l) => l.startsWith(`    ${figure} `))?.replace(/ +/g, ' ');
    expect(check('W3 embedded CPU-µs/delivery vs B1')).toBe(
      ' W3 embedded CPU-µs/delivery vs B1 1.60 (target <= 1.6x) PASS',
    );
    expect(check('W3 distributed gateway CPU-µs/delivery vs B1')).toContain('1.40 (target <= 1.6x) PASS');
    expect(check('W3 embedded deliveries/s at p99 <= bound vs B1')).toContain('0.50 (target >= 0.6x) FAIL');
    expect(check('W3 distributed deliveries/s at p99 <= bound vs B1')).toContain('0.25 (target >= 0.4x) FAIL');
    expect(check('joins/s (connect + join-workspace) distributed vs B1')).toContain('0.20 (target >= 0.5x) FAIL');
    expect(lines.at(-1)).toBe(
      '    joins/s (connect + join-workspace) distributed       1200.00 (target >= 1000 (PF15)) PASS',
    );
  });
});
