/**
 * The search index against a real PostgreSQL and the embedded event log: what it stores is keyed hashes only (no
 * word of a message appears in the index table), and a replay into an empty index rebuilds the same rows.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Message } from '@ephemera/proto';
import { EmbeddedEventLog, appendEvents, createPool, makeEvent, migrate, newId, userActor } from '@ephemera/platform';
import { createTestDatabase } from '../../../test/helpers/db.ts';
import { MESSAGING_MIGRATIONS } from '../src/index.ts';
import { startMessageSearch, roomSearchKeys } from '../src/search/index.ts';

const CANARY = 'zebracanary';

describe('search index (PostgreSQL)', async () => {
  const url = await createTestDatabase();
  await migrate(url, MESSAGING_MIGRATIONS, 'messaging');
  const pool = createPool(url, 4);
  const log = new EmbeddedEventLog(pool);
  await log.init([]);
  afterAll(async () => { await log.close(); await pool.end(); });
  const keyOf = roomSearchKeys(randomBytes(32));

  const workspaceId = newId();
  const channelId = newId();
  const userId = newId();
  const message = (seq: number, content: string): Message => ({
    id: newId(), clientMessageId: newId(), workspaceId, channelId, seq, authorId: userId, authorName: 'alice', profilePicture: null,
    timestamp: new Date().toISOString(), type: 'text', content, isEdited: false, replyTo: null, reactions: {}, linkPreview: null, editedAt: null,
  });

  it('stores no word of a message, only numbers, and rebuilds identically on replay', async () => {
    const search = await startMessageSearch({ pool, log, keyOf });
    const events = [1, 2, 3].map((seq) => makeEvent('message.sent', workspaceId, seq, {
      message: message(seq, `hello ${CANARY} number ${seq}`), audience: { kind: 'workspace' },
    }, userActor(userId)));
    await appendEvents(log, events);
    await search.caughtUp();
    const { rows } = await pool.query('SELECT row_to_json(e)::text AS row FROM messaging_search.entries e ORDER BY seq');
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(r.row).not.toContain(CANARY);
      expect(r.row).not.toContain('hello');
    }
    await search.stop();

    // Replay: an empty index and a new consumer group from the start give the same rows.
    await pool.query('TRUNCATE messaging_search.entries, messaging_search.processed_events');
    const replayed = await startMessageSearch({ pool, log, keyOf, groupId: 'search-replay' });
    const again = await pool.query('SELECT row_to_json(e)::text AS row FROM messaging_search.entries e ORDER BY seq');
    expect(again.rows).toEqual(rows);
    await replayed.stop();
  });
});
