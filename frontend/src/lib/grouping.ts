/** Message list layout: day separators and author grouping (same author within 2 minutes). */
import { LIMITS } from '@ephemera/proto/client';
import { dayKey, dayLabel } from './format.ts';

export interface GroupableMessage {
  key: string;
  authorId: string;
  timestamp: string;
  type: string;
}

export type ListItem<M> =
  | { kind: 'day'; key: string; label: string }
  | { kind: 'message'; key: string; message: M; showHeader: boolean };

export function buildMessageItems<M extends GroupableMessage>(
  messages: readonly M[],
  now: Date = new Date(),
  windowMs: number = LIMITS.groupingWindowMs,
): ListItem<M>[] {
  const items: ListItem<M>[] = [];
  let prev: M | null = null;
  let prevDay = '';
  for (const message of messages) {
    const day = dayKey(message.timestamp);
    if (day !== prevDay) {
      items.push({ kind: 'day', key: `day-${day}`, label: dayLabel(message.timestamp, now) });
      prevDay = day;
      prev = null;
    }
    items.push({ kind: 'message', key: message.key, message, showHeader: !continuesGroup(prev, message, windowMs) });
    prev = message;
  }
  return items;
}

function continuesGroup(prev: GroupableMessage | null, next: GroupableMessage, windowMs: number): boolean {
  if (!prev) return false;
  if (prev.type === 'system' || next.type === 'system') return false;
  if (prev.authorId !== next.authorId) return false;
  const gap = Date.parse(next.timestamp) - Date.parse(prev.timestamp);
  return Number.isFinite(gap) && gap >= 0 && gap <= windowMs;
}
