/** What a started target is (targets.ts, distributed-stack.ts), and the error that says it could not start. */
import type { TargetName } from './config.ts';
import type { TargetSpec } from '../generator/protocol.ts';
import type { Watched } from './stats.ts';

export interface RunningTarget {
  name: TargetName;
  spec: TargetSpec;
  watched: Watched[];
  /** the gateways' /metrics (server-side latency figures, server-latency.ts); absent for the baselines */
  metricsUrls?: string[];
  stop(): Promise<void>;
}
/** A target that could not run; the report says why instead of showing numbers. */
export class NotRun extends Error {}
