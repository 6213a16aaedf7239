/**
 * The SQL of the room service's part of the service backup (backup-part.ts): which room keys the backup carries,
 * and which restored rooms' lifetime has ended.
 */
import type { PoolClient } from '@ephemera/platform';

/** every room's id: the rooms whose keys are in the backup */
export async function roomIds(client: PoolClient): Promise<string[]> {
  return (await client.query<{ id: string }>('SELECT id FROM room.workspaces ORDER BY id')).rows.map((r) => r.id);
}

/** the rooms in the restore's staging schema whose lifetime ended by `now` */
export async function endedRoomsIn(client: PoolClient, staging: string, now: Date): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM ${staging}.workspaces WHERE expires_at IS NOT NULL AND expires_at <= $1`,
    [now],
  );
  return rows.map((r) => r.id);
}
