/** IPC messages between the orchestrator (run.ts) and the generator worker (worker.ts). */
import type { HistogramJSON } from '../lib/stats.ts';
import type { ClientKind } from './conn.ts';

/** How the worker reaches a target. b0: raw websocket relay; b1: bare Socket.IO; app: the Ephemera protocol. */
export type TargetSpec = { kind: 'b0'; url: string } | { kind: 'b1'; origin: string } | { kind: 'app'; origin: string };

export interface SetupCmd {
  type: 'setup';
  target: TargetSpec;
  connections: number;
  senders: number;
  sampleEvery: number;
  client: ClientKind;
  connectConcurrency: number;
  /** rounds of the same joins (each closed again) until this long has passed, before the timed round; 0: none */
  joinWarmupMs: number;
}
export interface StepCmd {
  type: 'step';
  step: number;
  rate: number; // sends per second, all senders together
  warmupMs: number;
  steadyMs: number;
  drainMaxMs: number;
  msgBytes: number;
}
export type ToWorker = SetupCmd | StepCmd | { type: 'close' };

export interface StepResult {
  step: number;
  rate: number;
  connections: number;
  sent: number; // steady-window messages sent
  expected: number; // sent x connections
  received: number; // steady-window messages received by all sockets (counted after the drain)
  windowMs: number; // actual steady window length
  receivedInWindow: number; // message frames (any phase) received during the steady window
  e2e: HistogramJSON; // microseconds, sampled sockets, steady messages
  fanout: HistogramJSON; // per message: latest arrival over the sampled sockets, microseconds
  ack: HistogramJSON; // send-to-ack microseconds (app targets), steady messages
  ackErrors: number;
  ackFirstError: string | null;
  genCpuUs: number; // the generator process's own CPU time in the window
  genCpuSysUs: number; // of which in the kernel
  drainMs: number;
  drainTimedOut: boolean;
}

export type FromWorker =
  /**
   * connectMs / joinsPerS: sockets 1..N-1's connect + join (after the warm-up rounds when there are some);
   * warmupJoinsPerS: each warm-up round's, the first (cold) one first; entersPerS: their join-channel (the app only)
   */
  | {
      type: 'ready';
      connectMs: number;
      joinsPerS: number;
      warmupJoinsPerS: number[];
      entersPerS: number | null;
      sampled: number;
      senders: number;
      info: string;
    }
  | { type: 'steady-start'; step: number }
  | { type: 'steady-end'; step: number }
  | { type: 'step-result'; result: StepResult }
  | { type: 'error'; message: string };
