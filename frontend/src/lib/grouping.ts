/**
 * Message list layout (docs/product/messages.md M7): day separators and author grouping. A message joins the group
 * of the message before it when the author is the same, it came within 2 minutes of that message, and the group
 * began at most 5 minutes earlier; otherwise it starts a new group with the author's header.
 */
import { LIMITS } from '@ephemera/proto/client';
import { dayKey, dayLabel } from './format.ts';

export interface GroupableMessage {
  key: string;
  authorId: string;
  timestamp: string;
  type: string;
}

export type ListItem<M> =
  { kind: 'day'; key: string; label: string } | { kind: 'message'; key: string; message: M; showHeader: boolean };

export function buildMessageItems<M extends GroupableMessage>(
  messages: readonly M[],
  now: Date = new Date(),
  windowMs: number = LIMITS.groupingWindowMs,
  spanMs: number = LIMITS.groupingSpanMs,
): ListItem<M>[] {
  const items: ListItem<M>[] = [];
  let prev: M | null = null;
  let groupStart = 0;
  let prevDay = '';
  for (const message of messages) {
    const day = dayKey(message.timestamp);
    if (day !== prevDay) {
      items.push({ kind: 'day', key: `day-${day}`, label: dayLabel(message.timestamp, now) });
      prevDay = day;
      prev = null;
    }
    const at = Date.parse(message.timestamp);
    const joins = continuesGroup(prev, message, windowMs) && at - groupStart <= spanMs;
    if (!joins) groupStart = at;
    items.push({ kind: 'message', key: message.key, message, showHeader: !joins });
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
