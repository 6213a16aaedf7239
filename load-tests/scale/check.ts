/**
 * One scenario run both ways: the closed form, and the simulation at the closed form's replica and partition counts,
 * with the totals compared (they must agree within `TOLERANCE`).
 */
import type { Inputs } from './inputs.ts';
import { limits, type Limit } from './limits.ts';
import { gatewayAt, gatewayIfFiltered, project, type Projection, type Scenario } from './model.ts';
import {
  partitionsPacedByBusiest,
  replicasPacedByBusiest,
  simulateGateways,
  simulatePartitions,
  type GatewaySimulation,
  type PartitionSimulation,
} from './simulate.ts';

export const TOLERANCE = 0.01;

export interface Agreement {
  figure: string;
  closedForm: number;
  simulated: number;
  /** relative difference */
  difference: number;
}

export interface ScenarioResult {
  projection: Projection;
  limits: Limit[];
  filtered: { random: number; byRoom: number };
  gateways: GatewaySimulation;
  paced: GatewaySimulation | null;
  partitions: PartitionSimulation;
  /** partitions (and shards) when the busiest partition must fit one messaging process; null: no count does */
  partitionsPaced: PartitionSimulation | null;
  agreement: Agreement[];
}

function agree(figure: string, closedForm: number, simulated: number): Agreement {
  const difference = closedForm === 0 ? Math.abs(simulated) : Math.abs(simulated - closedForm) / closedForm;
  return { figure, closedForm, simulated, difference };
}

export function runScenario(s: Scenario, i: Inputs, seed = 1): ScenarioResult {
  const projection = project(s, i);
  const t = projection.totals;
  const replicas = projection.gatewaysPriced;
  const gateways = simulateGateways(s, i, replicas, seed);
  const expectedFrames = gatewayAt(s, replicas, i).typingFrames;
  const partitions = simulatePartitions(s, i, projection.kafka.partitions, seed);
  return {
    projection,
    limits: limits(s, i),
    filtered: { random: gatewayIfFiltered(s, i, false), byRoom: gatewayIfFiltered(s, i, true) },
    gateways,
    paced: Number.isFinite(projection.gateway.replicas) ? replicasPacedByBusiest(s, i, replicas, seed) : null,
    partitions,
    partitionsPaced: partitionsPacedByBusiest(s, i, projection.kafka.partitions, seed),
    agreement: [
      agree('connections', t.connections, gateways.connections.total),
      agree('deliveries/s', t.deliveries, gateways.deliveries.total),
      agree('typing frames/s', expectedFrames, gateways.typingFrames.total),
      agree('events read/s per replica', t.records + t.typingEvents, gateways.readPerReplica),
      agree('Kafka records/s', t.records, partitions.records.total),
    ],
  };
}

export function disagreements(result: ScenarioResult): Agreement[] {
  return result.agreement.filter((a) => a.difference > TOLERANCE);
}
