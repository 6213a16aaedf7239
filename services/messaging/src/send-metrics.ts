/**
 * Where a send's time goes, for the operator reading a slow send-to-ack (gateway_command_duration_seconds) and the
 * runbooks: waiting in its room's queue behind the batch before it, the checks and lookups (PostgreSQL), the durable
 * append (the event log: Kafka in distributed mode), and the read model's apply (PostgreSQL, after the answer; the
 * room's next batch waits for it). One observation per send for `queued`, per batch for the others.
 */
import { COMMAND_LATENCY_BUCKETS, metrics } from '@ephemera/platform';

export type SendStage = 'queued' | 'checks' | 'append' | 'apply';

const sendStageDuration = new metrics.Histogram({
  name: 'messaging_send_stage_seconds',
  help: "a send's stages: queued (per send), checks, append and apply (per batch of a room's sends)",
  labelNames: ['stage'],
  buckets: COMMAND_LATENCY_BUCKETS,
});

/** Records the stage as ended now, begun at `startedAt` (performance.now()); returns now for the next stage. */
export function stageEnded(stage: SendStage, startedAt: number): number {
  const now = performance.now();
  sendStageDuration.observe({ stage }, (now - startedAt) / 1000);
  return now;
}
