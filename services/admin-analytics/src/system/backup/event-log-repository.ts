/**
 * The embedded event log's tables as a backup reads and writes them (position.ts, backups.ts): whether this database
 * holds the log (embedded mode), its first event and head, and the committed positions of consumer groups
 * (event_log_offsets). Each takes the caller's client, so a read inside the backup's snapshot stays in it.
 */
import type { PoolClient } from '@ephemera/platform';

/** true when this database holds the embedded event log (embedded mode) */
export async function hasEmbeddedLog(client: PoolClient): Promise<boolean> {
  const { rows } = await client.query<{ t: string | null }>(
    "SELECT to_regclass('public.event_log_offsets')::text AS t",
  );
  return rows[0]?.t != null;
}

/** the event id of the log's first record; null for an empty log */
export async function firstLogEventId(client: PoolClient): Promise<string | null> {
  const { rows } = await client.query<{ event_id: string }>('SELECT event_id FROM event_log ORDER BY position LIMIT 1');
  return rows[0]?.event_id ?? null;
}

/** the log's last position ('0' for an empty log) */
export async function logHead(client: PoolClient): Promise<string> {
  const { rows } = await client.query<{ p: string }>('SELECT coalesce(max(position), 0)::text AS p FROM event_log');
  return rows[0]?.p ?? '0';
}

/** a consumer group's committed position per topic key, by topic key */
export async function groupOffsets(
  client: PoolClient,
  groupId: string,
): Promise<Array<{ topic: string; position: string }>> {
  const { rows } = await client.query<{ topic: string; position: string }>(
    'SELECT topic, position::text AS position FROM event_log_offsets WHERE group_id = $1 ORDER BY topic',
    [groupId],
  );
  return rows;
}

/** starts a new consumer group at `position` of the topic key */
export async function insertGroupOffset(
  client: PoolClient,
  groupId: string,
  topicKey: string,
  position: string,
): Promise<void> {
  await client.query('INSERT INTO event_log_offsets (group_id, topic, position) VALUES ($1, $2, $3)', [
    groupId,
    topicKey,
    position,
  ]);
}

/** drops a consumer group's committed positions */
export async function deleteGroupOffsets(client: PoolClient, groupId: string): Promise<void> {
  await client.query('DELETE FROM event_log_offsets WHERE group_id = $1', [groupId]);
}
