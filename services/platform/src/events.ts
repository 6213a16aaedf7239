/** Building envelopes and log records: the one place that stamps id, version, time and trace context on an event. */
import {
  EVENT_VERSION,
  TOPIC_OF,
  partitionKeyOf,
  type Actor,
  type DomainEventType,
  type DomainEventPayload,
  type EventEnvelope,
  type AnyEventEnvelope,
} from '@ephemera/proto';
import { newEventId } from './ids.ts';
import { inSpan, SpanKind, traceHeaders } from './telemetry.ts';
import type { EventLog, LogRecord } from './event-log/port.ts';

export function makeEvent<T extends DomainEventType>(
  type: T,
  aggregateId: string,
  sequence: number,
  payload: DomainEventPayload<T>,
  actor: Actor,
): EventEnvelope<T> {
  return {
    id: newEventId(),
    type,
    version: EVENT_VERSION,
    aggregateId,
    sequence,
    occurredAt: new Date().toISOString(),
    actor,
    trace: traceHeaders(),
    payload,
  };
}

export function toRecords(events: AnyEventEnvelope[]): LogRecord[] {
  return events.map((event) => ({
    topic: TOPIC_OF[event.type],
    key: partitionKeyOf(event),
    event,
    headers: traceHeaders(),
  }));
}

export const systemActor: Actor = { kind: 'system', userId: null };
export const userActor = (userId: string): Actor => ({ kind: 'user', userId });

/** Append events durably inside a producer span; the records carry that span's context as headers. */
export function appendEvents(log: EventLog, events: AnyEventEnvelope[]): Promise<void> {
  const name = `append ${[...new Set(events.map((e) => e.type))].join(',')}`;
  return inSpan(name, SpanKind.PRODUCER, () => log.append(toRecords(events)));
}
