/**
 * What one step of a run measured (report.ts computes it, capacity.ts judges it); a file of its own so capacity.ts
 * does not import report.ts, which imports it.
 */
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
