/**
 * The search index against a real PostgreSQL: what it stores is keyed hashes only (no word of a message appears in
 * the index table, nor in the sealed message rows), edits and deletions change it, applying the same events again
 * changes nothing, and the tokens are keyed by the room's own key (without it, search finds nothing).
 */
import { describe, it, expect, afterAll } from 'vitest';
import type { Message } from '@ephemera/proto';
import { applyOnce, createPool, makeEvent, migrate, newId, userActor, RoomKey, RoomKeyring } from '@ephemera/platform';
import { createTestDatabase } from '../../../test/helpers/db.ts';
import { MESSAGING_MIGRATIONS } from '../src/index.ts';
import { messagingProjector } from '../src/projection.ts';
import { messageSearch, composeProjectors } from '../src/search/index.ts';

const CANARY = 'zebracanary';

describe('search index (PostgreSQL)', async () => {
  const url = await createTestDatabase();
  await migrate(url, MESSAGING_MIGRATIONS, 'messaging');
  const pool = createPool(url, 4);
  afterAll(async () => {
    await pool.end();
  });
  const workspaceId = newId();
  const roomKey = RoomKey.generate(workspaceId);
  const keyring = new RoomKeyring(async (id) => (id === workspaceId ? roomKey : null));
  const search = messageSearch(pool, keyring);
  const project = composeProjectors(messagingProjector(keyring), search.projector);

  const channelId = newId();
  const userId = newId();
  const actor = { workspaceId, userId, username: 'alice' };
  const audience = { kind: 'workspace' } as const;
  const message = (seq: number, content: string): Message => ({
    id: newId(),
    clientMessageId: newId(),
    workspaceId,
    channelId,
    seq,
    authorId: userId,
    authorName: 'alice',
    profilePicture: null,
    timestamp: new Date().toISOString(),
    type: 'text',
    content,
    isEdited: false,
    replyTo: null,
    reactions: {},
    linkPreview: null,
    editedAt: null,
    file: null,
  });
  const rows = async () =>
    (await pool.query('SELECT row_to_json(e)::text AS row FROM messaging_search.entries e ORDER BY seq')).rows.map(
      (r) => r.row as string,
    );

  it('stores no word of a message, only numbers; follows edits and deletions; is idempotent', async () => {
    const setup = [
      makeEvent(
        'workspace.created',
        workspaceId,
        1,
        {
          workspaceId,
          name: 'r',
          nameKey: 'r',
          tier: 'free',
          createdAt: new Date().toISOString(),
          expiresAt: null,
          passwordHash: null,
          createdBy: userId,
        },
        userActor(userId),
      ),
      makeEvent(
        'member.joined',
        workspaceId,
        2,
        { workspaceId, userId, username: 'alice', isAdmin: true, tokenHash: 'x', joinedAt: new Date().toISOString() },
        userActor(userId),
      ),
      makeEvent(
        'channel.created',
        workspaceId,
        3,
        {
          workspaceId,
          channel: {
            id: channelId,
            workspaceId,
            name: 'general',
            type: 'topic',
            isPrivate: false,
            memberIds: [],
            createdBy: userId,
            createdAt: new Date().toISOString(),
          },
        },
        userActor(userId),
      ),
    ];
    const sent = [1, 2, 3].map((seq) =>
      makeEvent(
        'message.sent',
        workspaceId,
        seq,
        { message: message(seq, `hello ${CANARY} number ${seq}`), audience },
        userActor(userId),
      ),
    );
    await applyOnce(pool, 'messaging', [...setup, ...sent], project);
    const stored = await rows();
    expect(stored).toHaveLength(3);
    for (const r of stored) {
      expect(r).not.toContain(CANARY);
      expect(r).not.toContain('hello');
    }
    const messageRows = (await pool.query('SELECT row_to_json(m)::text AS row FROM messaging.messages m')).rows.map(
      (r) => r.row as string,
    );
    expect(messageRows).toHaveLength(3);
    for (const r of messageRows) {
      expect(r).not.toContain(CANARY);
      expect(r).not.toContain('alice');
    }
    expect((await search.search(actor, CANARY)).map((m) => m.seq)).toEqual([3, 2, 1]);

    await applyOnce(pool, 'messaging', sent, project); // delivered again: nothing changes
    expect(await rows()).toEqual(stored);

    const first = sent[0]!.payload.message;
    await applyOnce(
      pool,
      'messaging',
      [
        makeEvent(
          'message.edited',
          first.id,
          2,
          {
            workspaceId,
            channelId,
            messageId: first.id,
            content: 'completely different',
            editedAt: new Date().toISOString(),
            audience,
          },
          userActor(userId),
        ),
        makeEvent(
          'message.deleted',
          sent[1]!.payload.message.id,
          2,
          { workspaceId, channelId, messageId: sent[1]!.payload.message.id, audience },
          userActor(userId),
        ),
      ],
      project,
    );
    expect((await search.search(actor, CANARY)).map((m) => m.seq)).toEqual([3]);
    expect((await search.search(actor, 'different')).map((m) => m.seq)).toEqual([1]);
  });

  it('answers the newest matches whether they are recent (newest-first walk) or older than the walk (GIN index)', async () => {
    const base = 1000;
    const events = [];
    for (let i = 0; i < 2100; i++) {
      const seq = base + i;
      const content = i < 15 ? `rareword early ${i}` : `commonword filler ${i}`;
      events.push(
        makeEvent('message.sent', workspaceId, seq, { message: message(seq, content), audience }, userActor(userId)),
      );
    }
    await applyOnce(pool, 'messaging', events, project);
    // rare: all 15 matches are older than the newest 2000 entries, so the walk finds none and the index answers
    expect((await search.search(actor, 'rareword')).map((m) => m.seq)).toEqual(
      [14, 13, 12, 11, 10, 9, 8, 7, 6, 5].map((i) => base + i),
    );
    // common: the walk finds a full page among the newest entries
    expect((await search.search(actor, 'commonword')).map((m) => m.seq)).toEqual(
      Array.from({ length: 10 }, (_, k) => base + 2099 - k),
    );
  });

  it("is keyed by the room's own key: another key finds nothing; once the key is destroyed the room reads as gone", async () => {
    const otherKey = new RoomKeyring(async () => RoomKey.generate(workspaceId));
    expect(await messageSearch(pool, otherKey).search(actor, 'commonword')).toEqual([]);
    keyring.forget(workspaceId); // what destroying the key does to this process's keyring
    await expect(search.search(actor, 'commonword')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
    const late = makeEvent(
      'message.sent',
      workspaceId,
      9999,
      { message: message(9999, `late ${CANARY}`), audience },
      userActor(userId),
    );
    await applyOnce(pool, 'messaging', [late], project);
    const { rowCount } = await pool.query('SELECT 1 FROM messaging.messages WHERE seq = 9999');
    expect(rowCount).toBe(0); // nothing of a room without a key is stored again
  });
});
