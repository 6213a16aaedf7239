/**
 * W2's settings (the bench's config, BENCH_W2_RATE or --w2-rate=, the targets: b1 and embedded unless --targets=
 * names others) and the counters each target's run fills: what each kind of event reached, and what it should have.
 */
import { loadConfig, type TargetName } from '../lib/config.ts';

export const cfg = loadConfig();
const explicitTargets = process.argv.some((a) => a.startsWith('--targets=')) || Boolean(process.env.BENCH_TARGETS);
export const targets: TargetName[] = explicitTargets ? cfg.targets.filter((t) => t !== 'b0') : ['b1', 'embedded'];
export const RATE = Number(process.env.BENCH_W2_RATE ?? flag('w2-rate') ?? 100);
export const N = cfg.connections;
export const USERS = 5;
export const PUBLIC = 'bench';
export const PRIVATE = 'secret';

function flag(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

export type Kind = 'pub' | 'presence' | 'priv';
export interface Counters {
  received: Record<Kind, number>;
  expected: Record<Kind, number>;
  violations: number;
  ownTyping: number;
  refused: number;
  firstRefusal?: string;
  ackMs: number[];
  typingAckMs: number[];
  loopLagMs: number;
}
export const zero = (): Counters => ({
  received: { pub: 0, presence: 0, priv: 0 },
  expected: { pub: 0, presence: 0, priv: 0 },
  violations: 0,
  ownTyping: 0,
  refused: 0,
  ackMs: [],
  typingAckMs: [],
  loopLagMs: 0,
});
