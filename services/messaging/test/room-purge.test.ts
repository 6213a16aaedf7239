/**
 * A removed room's bulk rows are deleted in batches (room-purge.ts): every row of that room goes, batch after batch,
 * and no row of another room is touched.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { createPool, migrate, newId } from '@ephemera/platform';
import { createTestDatabase } from '../../../test/helpers/db.ts';
import { MESSAGING_MIGRATIONS } from '../src/index.ts';
import { purgeRoomInBatches } from '../src/room-purge.ts';

describe('room purge in batches (PostgreSQL)', async () => {
  const url = await createTestDatabase();
  await migrate(url, MESSAGING_MIGRATIONS, 'messaging');
  const pool = createPool(url, 4);
  afterAll(async () => {
    await pool.end();
  });

  const seed = async (workspaceId: string, n: number) => {
    const channelId = newId();
    for (let seq = 1; seq <= n; seq++) {
      await pool.query(
        `INSERT INTO messaging.messages (id, workspace_id, seq, channel_id, client_message_id, author_id, sealed_body, created_at)
         VALUES ($1, $2, $3, $4, $5, 'u', 'x', now())`,
        [newId(), workspaceId, seq, channelId, newId()],
      );
      await pool.query(
        'INSERT INTO messaging_search.entries (message_id, workspace_id, channel_id, seq, tokens) VALUES ($1, $2, $3, $4, $5::bigint[])',
        [newId(), workspaceId, channelId, seq, ['1', '2']],
      );
    }
  };
  const count = async (table: string, workspaceId: string) =>
    Number((await pool.query(`SELECT count(*) AS n FROM ${table} WHERE workspace_id = $1`, [workspaceId])).rows[0].n);

  it('removes every bulk row of the room, in batches, and nothing of another room', async () => {
    const [gone, kept] = [newId(), newId()];
    await seed(gone, 23);
    await seed(kept, 4);
    const removed = await purgeRoomInBatches(pool, gone, { batchRows: 5, pauseMs: 1 });
    expect(removed).toBe(46);
    expect(await count('messaging.messages', gone)).toBe(0);
    expect(await count('messaging_search.entries', gone)).toBe(0);
    expect(await count('messaging.messages', kept)).toBe(4);
    expect(await count('messaging_search.entries', kept)).toBe(4);
    expect(await purgeRoomInBatches(pool, gone)).toBe(0); // delivered again: nothing left, nothing else touched
    expect(await count('messaging.messages', kept)).toBe(4);
  });
});
