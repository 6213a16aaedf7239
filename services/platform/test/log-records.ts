/** A small, valid room event for the event-log tests: `workspace.expired` of room `key`, at `sequence`. */
import { randomUUID } from 'node:crypto';
import { TOPICS, type AnyEventEnvelope } from '@ephemera/proto';
import type { LogRecord } from '../src/event-log/port.ts';

export function roomRecord(key: string, sequence: number, headers?: Record<string, string>): LogRecord {
  const event: AnyEventEnvelope = {
    id: randomUUID(),
    type: 'workspace.expired',
    version: 1,
    aggregateId: key,
    sequence,
    occurredAt: new Date().toISOString(),
    actor: { kind: 'system', userId: null },
    trace: {},
    payload: { workspaceId: key, name: `room ${key}`, expiredAt: new Date().toISOString() },
  };
  return { topic: TOPICS.room, key, event, headers };
}
