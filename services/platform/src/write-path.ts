/**
 * The one write path of every service (docs/architecture.md, "The write path"): a use case decides its events and
 * its answer, the recorder makes the events durable in the log and then applies them to the service's read model.
 *
 * - An append that fails rejects: nothing is applied (the events may or may not be in the log; a service that
 *   numbers its own events, as messaging does, re-reads its numbering from its projection of the log).
 * - Once the append returned the events happened (the log is the source of truth, and other services may already
 *   act on them): an apply that fails then does not reject. The recorder logs it, tells the caller's `notApplied`
 *   and resolves `false`; the service's own-events consumer applies the events later (applyOnce records each event
 *   id, so the command path and the consumer apply an event once between them).
 * - No events: nothing is appended or applied.
 */
import type { AnyEventEnvelope } from '@ephemera/proto';
import type { EventLog } from './event-log/port.ts';
import { appendEvents } from './events.ts';
import type { Logger } from './log.ts';
import type { Pool } from './pg.ts';
import { applyOnce, type Projector } from './projection.ts';

/** What a use case decided: the events to record, the caller's answer, and work that waits for the events' record. */
export interface Decision<T> {
  events: AnyEventEnvelope[];
  answer: T;
  /** runs once the events are recorded (deleting stored objects of what was removed, ...) */
  after?: () => Promise<void>;
}

/** The service's read model: its schema (holding processed_events) and the projector of its events. */
export interface RecordedReadModel {
  pool: Pool;
  schema: string;
  project: Projector;
  /** applyOnce's `flush` (false only where the event log shares this PostgreSQL: platform/projection.ts) */
  flush?: boolean;
}

export interface RecorderOptions {
  log: EventLog;
  /** absent for a service that only appends (the gateway's call events: no read model) */
  readModel?: RecordedReadModel;
  /** where an apply that failed after a durable append is logged */
  logger?: Pick<Logger, 'warn'>;
}

/** What a caller may observe of one record (messaging: its sends' answers and its rooms' numbering). */
export interface RecordHooks {
  /** between the durable append and the apply (messaging answers its sends there) */
  appended?: () => void;
  /** the append failed (just before record rejects): the events may or may not be in the log */
  appendFailed?: (err: unknown) => void;
  /** applied to the read model here */
  applied?: (events: AnyEventEnvelope[]) => void;
  /** durable, but the apply failed: the service's own-events consumer applies them */
  notApplied?: (err: unknown) => void;
}

export interface Recorder {
  /** Durable in the log, then applied; resolves whether the apply happened here (true also without a read model). */
  record(events: AnyEventEnvelope[], hooks?: RecordHooks): Promise<boolean>;
  /** Runs a decision, records its events, runs its after-effect, then returns its answer. */
  run<T>(decide: () => Promise<Decision<T>> | Decision<T>, hooks?: RecordHooks): Promise<T>;
}

export function createRecorder(options: RecorderOptions): Recorder {
  const { log, readModel, logger } = options;

  async function record(events: AnyEventEnvelope[], hooks: RecordHooks = {}): Promise<boolean> {
    if (events.length === 0) return true;
    try {
      await appendEvents(log, events);
    } catch (err) {
      hooks.appendFailed?.(err);
      throw err;
    }
    hooks.appended?.();
    if (!readModel) return true;
    try {
      await applyOnce(readModel.pool, readModel.schema, events, readModel.project, { flush: readModel.flush });
    } catch (err) {
      logger?.warn(
        { err, schema: readModel.schema, events: events.map((e) => e.id) },
        'durable events not applied here: the consumer applies them',
      );
      hooks.notApplied?.(err);
      return false;
    }
    hooks.applied?.(events);
    return true;
  }

  return {
    record,
    async run(decide, hooks) {
      const { events, answer, after } = await decide();
      await record(events, hooks);
      if (after) await after();
      return answer;
    },
  };
}
