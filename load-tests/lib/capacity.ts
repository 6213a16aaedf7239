/**
 * A W3 target's capacity, and what the distributed capacity target asks of the machine the bench ran on: the cores it
 * takes at the stack's own cost (capacityNeeds), and what B1 behind the same ingress leaves of them (ingressFloor).
 */
import type { StepFigures } from './step-figures.ts';

export const passes = (s: StepFigures, boundMs: number) => s.ratio === 1 && s.e2eMs.p99 <= boundMs && !s.drainTimedOut;

/** A target's capacity step: the most deliveries/s among the steps that met the bound (undefined if none did). */
export const capacityStep = (steps: StepFigures[], boundMs: number): StepFigures | undefined =>
  steps.filter((s) => passes(s, boundMs)).sort((a, b) => b.deliveriesPerS - a.deliveriesPerS)[0];

/**
 * The CPU a capacity target takes on the machine the bench ran on: `fraction` x B1's capacity in deliveries/s, at
 * the target's own CPU per delivery (every process of it) plus the generator's, both as measured at the target's
 * capacity step (the highest rate whose p99 met the bound; the lowest rate run if none did), and how busy the
 * machine's cores were at that step. A delivery gets cheaper at higher rates (bigger batches), but only once the
 * latency no longer meets the bound: the capacity step's cost is the one the target has to be met at. More cores
 * than the machine has, with its cores already busy at that step, means the target is out of reach here.
 */
export interface CapacityNeeds {
  fraction: number;
  requiredPerS: number;
  atRate: number;
  serverUsPerDelivery: number;
  genUsPerDelivery: number;
  coresNeeded: number;
  cores: number;
  /** the machine's cores at that step: busy share of all of them, % (whoever used them) */
  machineBusyPct: number;
}

export function capacityNeeds(
  steps: StepFigures[],
  b1Capacity: number | null,
  fraction: number,
  cores: number,
  boundMs: number,
): CapacityNeeds | null {
  const at = capacityStep(steps, boundMs) ?? [...steps].sort((a, b) => a.rate - b.rate)[0];
  if (!at || !b1Capacity || !(at.serverCpuUsPerDelivery > 0)) return null;
  const requiredPerS = fraction * b1Capacity;
  const genUsPerDelivery = at.genCpuUsPerDelivery > 0 ? at.genCpuUsPerDelivery : 0;
  const busy = at.coreBusyPct ?? [];
  return {
    fraction,
    requiredPerS,
    atRate: at.rate,
    serverUsPerDelivery: at.serverCpuUsPerDelivery,
    genUsPerDelivery,
    coresNeeded: (requiredPerS * (at.serverCpuUsPerDelivery + genUsPerDelivery)) / 1e6,
    cores,
    machineBusyPct: busy.length ? busy.reduce((a, b) => a + b, 0) / busy.length : NaN,
  };
}

/**
 * The distributed capacity target against a floor: B1 behind the same ingress (the `b1-ingress` target: bare
 * Socket.IO, none of the product) at the lowest rate run that reaches `fraction` x B1's capacity. What it uses of the
 * machine, with the generator, is gone before the product does anything; what is left is all the product may add
 * (its gateways beyond bare Socket.IO, the log, the read models) at that rate. `productAddsUsPerDelivery` is what it
 * added per delivery at the same rate in this run (the distributed stack minus B1 behind the ingress), when both ran it.
 */
export interface IngressFloor {
  rate: number;
  deliveriesPerS: number;
  p99Ms: number;
  /** B1 and the ingress, and the generator, in cores at that rate */
  floorCores: number;
  genCores: number;
  cores: number;
  /** the machine's cores left for the product, and that as CPU-µs per delivery at that rate */
  leftCores: number;
  leftUsPerDelivery: number;
  productAddsUsPerDelivery: number | null;
}

/** A step reaches a rate of deliveries within this share of it: the measured rate falls a little short of the offered one. */
const REACHED = 0.99;

export function ingressFloor(
  ingress: StepFigures[],
  distributed: StepFigures[],
  b1Capacity: number | null,
  fraction: number,
  cores: number,
): IngressFloor | null {
  if (!b1Capacity) return null;
  const required = fraction * b1Capacity;
  const at = [...ingress]
    .sort((a, b) => a.rate - b.rate)
    .find((x) => x.deliveriesPerS >= required * REACHED && x.serverCpuUsPerDelivery > 0);
  if (!at) return null;
  const floorCores = (at.deliveriesPerS * at.serverCpuUsPerDelivery) / 1e6;
  const genCores = (at.deliveriesPerS * Math.max(at.genCpuUsPerDelivery, 0)) / 1e6;
  const leftCores = cores - floorCores - genCores;
  const same = distributed.find((x) => x.rate === at.rate && x.serverCpuUsPerDelivery > 0);
  return {
    rate: at.rate,
    deliveriesPerS: at.deliveriesPerS,
    p99Ms: at.e2eMs.p99,
    floorCores,
    genCores,
    cores,
    leftCores,
    leftUsPerDelivery: (leftCores * 1e6) / at.deliveriesPerS,
    productAddsUsPerDelivery: same ? same.serverCpuUsPerDelivery - at.serverCpuUsPerDelivery : null,
  };
}
