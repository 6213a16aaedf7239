/**
 * How a room-experience suite reads the running target: room-experience.ts starts the product and hands each suite
 * this; the suites import it from here, not from room-experience.ts, which imports them.
 */
import type { Target } from './journey.suite.ts';

export type TargetRef = () => Target & { A: string; B: string };
