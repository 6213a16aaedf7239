/**
 * What one step of a run measured: its figures, computed from the generator's result and the CPU read around the
 * steady window, and their median over repetitions. capacity.ts judges them, report.ts prints them, summary.ts
 * compares targets by them; this file imports none of those.
 */
import { Histogram, median } from './stats.ts';
import type { StepResult } from '../generator/protocol.ts';

export interface StepFigures {
  target: string;
  rep: number;
  rate: number;
  connections: number;
  offeredPerS: number; // rate x connections
  deliveriesPerS: number; // frames received by all sockets in the steady window / window length
  sent: number;
  expected: number;
  received: number;
  ratio: number; // received / expected (after the drain)
  e2eMs: Pct; // sampled sockets, steady messages
  fanoutMs: Pct; // per message, last sampled recipient
  ackMs: Pct | null; // send-to-ack (app targets)
  ackErrors: number;
  ackFirstError: string | null;
  serverCpuUs: Record<string, number>; // per process label, in the window
  serverCpuUsPerDelivery: number; // all server processes
  cpuUsPerDeliveryByProcess: Record<string, number>;
  cpuUsPerSentByProcess: Record<string, number>;
  /** per sent message, above the process's idle CPU (measured with every socket connected, nothing sent) */
  cpuUsPerSentAboveIdleByProcess: Record<string, number>;
  serverCorePct: number;
  genCpuUsPerDelivery: number;
  genCorePct: number;
  genSysPct: number; // share of the generator's CPU spent in the kernel
  coreBusyPct: number[]; // every core of the machine, whoever used it
  othersPct: number; // core-% used by processes other than the server and the generator (noise)
  drainMs: number;
  drainTimedOut: boolean;
}
export interface Pct {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  count: number;
}

function pct(h: Histogram): Pct {
  const ms = (us: number) => Math.round(us) / 1000;
  return {
    p50: ms(h.percentile(50)),
    p95: ms(h.percentile(95)),
    p99: ms(h.percentile(99)),
    max: ms(h.max),
    count: h.count,
  };
}

export function stepFigures(
  target: string,
  rep: number,
  r: StepResult,
  cpuUs: Record<string, number>,
  cores: number[],
  idleCorePct: Record<string, number> = {},
): StepFigures {
  const win = r.windowMs / 1000;
  const deliveries = r.receivedInWindow;
  const total = Object.values(cpuUs).reduce((a, b) => a + b, 0);
  const per = (d: number) => Object.fromEntries(Object.entries(cpuUs).map(([k, v]) => [k, d > 0 ? v / d : NaN]));
  const ack = Histogram.from(r.ack);
  return {
    target,
    rep,
    rate: r.rate,
    connections: r.connections,
    offeredPerS: r.rate * r.connections,
    deliveriesPerS: deliveries / win,
    sent: r.sent,
    expected: r.expected,
    received: r.received,
    ratio: r.expected > 0 ? r.received / r.expected : NaN,
    e2eMs: pct(Histogram.from(r.e2e)),
    fanoutMs: pct(Histogram.from(r.fanout)),
    ackMs: ack.count > 0 || r.ackErrors > 0 ? pct(ack) : null,
    ackErrors: r.ackErrors,
    ackFirstError: r.ackFirstError,
    serverCpuUs: cpuUs,
    serverCpuUsPerDelivery: deliveries > 0 ? total / deliveries : NaN,
    cpuUsPerDeliveryByProcess: per(deliveries),
    cpuUsPerSentByProcess: per(r.sent),
    cpuUsPerSentAboveIdleByProcess: Object.fromEntries(
      Object.entries(cpuUs).map(([k, v]) => [
        k,
        r.sent > 0 ? Math.max(0, v - ((idleCorePct[k] ?? 0) / 100) * r.windowMs * 1000) / r.sent : NaN,
      ]),
    ),
    serverCorePct: (total / (r.windowMs * 1000)) * 100,
    genCpuUsPerDelivery: deliveries > 0 ? r.genCpuUs / deliveries : NaN,
    genCorePct: (r.genCpuUs / (r.windowMs * 1000)) * 100,
    genSysPct: r.genCpuUs > 0 ? (r.genCpuSysUs / r.genCpuUs) * 100 : NaN,
    coreBusyPct: cores,
    othersPct: cores.reduce((a, b) => a + b, 0) - (total + r.genCpuUs) / (r.windowMs * 10),
    drainMs: r.drainMs,
    drainTimedOut: r.drainTimedOut,
  };
}

/** Median over repetitions of every numeric figure of the steps of one target at one rate. */
export function medianStep(steps: StepFigures[]): StepFigures {
  if (steps.length === 1) return steps[0];
  const m = (g: (s: StepFigures) => number) => median(steps.map(g));
  const mp = (g: (s: StepFigures) => Pct | null): Pct | null =>
    g(steps[0])
      ? {
          p50: m((s) => g(s)!.p50),
          p95: m((s) => g(s)!.p95),
          p99: m((s) => g(s)!.p99),
          max: m((s) => g(s)!.max),
          count: m((s) => g(s)!.count),
        }
      : null;
  const mr = (g: (s: StepFigures) => Record<string, number>) =>
    Object.fromEntries(Object.keys(g(steps[0])).map((key) => [key, m((s) => g(s)[key] ?? NaN)]));
  return {
    ...steps[0],
    rep: 0,
    deliveriesPerS: m((s) => s.deliveriesPerS),
    sent: m((s) => s.sent),
    expected: m((s) => s.expected),
    received: m((s) => s.received),
    ratio: Math.min(...steps.map((s) => s.ratio)), // a lost message in any repetition shows
    e2eMs: mp((s) => s.e2eMs)!,
    fanoutMs: mp((s) => s.fanoutMs)!,
    ackMs: mp((s) => s.ackMs),
    ackErrors: Math.max(...steps.map((s) => s.ackErrors)),
    serverCpuUs: mr((s) => s.serverCpuUs),
    serverCpuUsPerDelivery: m((s) => s.serverCpuUsPerDelivery),
    cpuUsPerDeliveryByProcess: mr((s) => s.cpuUsPerDeliveryByProcess),
    cpuUsPerSentByProcess: mr((s) => s.cpuUsPerSentByProcess),
    cpuUsPerSentAboveIdleByProcess: mr((s) => s.cpuUsPerSentAboveIdleByProcess),
    serverCorePct: m((s) => s.serverCorePct),
    genCpuUsPerDelivery: m((s) => s.genCpuUsPerDelivery),
    genCorePct: m((s) => s.genCorePct),
    genSysPct: m((s) => s.genSysPct),
    coreBusyPct: steps[0].coreBusyPct.map((_, i) => m((s) => s.coreBusyPct[i])),
    othersPct: m((s) => s.othersPct),
    drainMs: m((s) => s.drainMs),
    drainTimedOut: steps.some((s) => s.drainTimedOut),
  };
}
