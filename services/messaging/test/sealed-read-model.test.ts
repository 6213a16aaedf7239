/**
 * Messaging's read model under the room key (docs/crypto.md): after a canary is sent, quoted in a reply, edited into
 * another message and carried in a link preview and an author name, no row of the messaging schemas holds it (read
 * straight from PostgreSQL), while every read path that answers a member still gives it back in the clear: fetch,
 * sync, the channel summaries' last message, search, the edit path and the stored quote of a new reply.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { MessageLinkPreview, SessionActor } from '@ephemera/proto';
import { createLogger, isSealed } from '@ephemera/platform';
import { clientId } from '../../../test/helpers/clients.ts';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';
import { startMessagingModule } from '../src/index.ts';

const logger = createLogger('test', 'silent');
/** letters only: one search word, a valid username, found by nothing else */
const canary = (prefix: string) =>
  `${prefix}${randomBytes(8)
    .toString('hex')
    .replace(/\d/g, (d) => 'qrstuvwxyz'[Number(d)]!)}`;

describe('messaging read model under the room key', async () => {
  const world = await startRoomWorld();
  const { databaseUrl, pool, log, keys, room } = world;
  const text = canary('text');
  const previewTitle = canary('title');
  const preview: MessageLinkPreview = {
    type: 'other',
    url: 'https://example.com/p',
    title: previewTitle,
    description: null,
    image: null,
    thumbnail: null,
    author: null,
    siteName: 'example.com',
    postId: null,
    videoId: null,
  };
  const messaging = await startMessagingModule({
    databaseUrl,
    pool,
    log,
    logger,
    logSharesDatabase: true,
    keyring: keys.keyring,
    linkPreviews: { cached: (url) => (url === preview.url ? preview : null) },
  });
  world.stopFirst(() => messaging.stop());
  afterAll(() => world.stop());

  /** every row of every table of the messaging schemas, as text */
  const storedText = async () => {
    const { rows } = await pool.query(
      `SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema IN ('messaging', 'messaging_search') AND table_type = 'BASE TABLE'`,
    );
    const parts = await Promise.all(
      rows.map(
        async (t) =>
          (
            await pool.query(
              `SELECT coalesce(json_agg(t)::text, '') AS rows FROM "${t.table_schema}"."${t.table_name}" t`,
            )
          ).rows[0].rows as string,
      ),
    );
    return parts.join('\n');
  };

  it('holds no text, quote, preview or author name in the clear, and answers all of them to members', async () => {
    const author = canary('Au');
    const created = await room.service.createWorkspace({
      name: `sealed-msg-${Date.now().toString(36)}`,
      username: author,
    });
    const ws = created.workspaceId;
    const alice: SessionActor = { workspaceId: ws, userId: created.user.id, username: author };
    const bob = await room.service.joinWorkspace(ws, { username: 'bob' });
    const bobActor: SessionActor = { workspaceId: ws, userId: bob.user.id, username: 'bob' };
    const general = await room.service.createChannel(alice, {
      workspaceId: ws,
      name: 'general',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    const send = (actor: SessionActor, content: string, extra = {}) =>
      messaging.service.sendMessage(actor, {
        clientMessageId: clientId(),
        channelId: general.id,
        content,
        type: 'text',
        ...extra,
      });

    const original = await send(alice, `hello ${text}`);
    const reply = await send(bobActor, 'quoting you', { replyTo: { messageId: original.id } });
    expect(reply.replyTo).toEqual({ messageId: original.id, content: `hello ${text}`, authorName: author }); // the quote, opened on send
    const withPreview = await send(alice, 'look https://example.com/p', { linkPreview: { url: preview.url } });
    expect(withPreview.linkPreview).toEqual(preview);
    const toEdit = await send(bobActor, 'plain words');
    const edited = await messaging.service.editMessage(bobActor, {
      workspaceId: ws,
      messageId: toEdit.id,
      newContent: `now ${text} too`,
    });
    expect(edited.content).toBe(`now ${text} too`);
    await messaging.service.addReaction(alice, { workspaceId: ws, messageId: original.id, emoji: '👍' }); // a re-sealed row

    const stored = await storedText();
    for (const secret of [text, previewTitle, author]) {
      expect(stored).not.toContain(secret);
      expect(stored.toLowerCase()).not.toContain(secret.toLowerCase());
    }
    const { rows } = await pool.query('SELECT sealed_body FROM messaging.messages WHERE workspace_id = $1', [ws]);
    expect(rows).toHaveLength(4);
    for (const r of rows) expect(isSealed(r.sealed_body)).toBe(true);

    // Every read path answers the text in the clear.
    const page = await messaging.service.fetchMessages(bobActor, { channelId: general.id, limit: 10 });
    expect(page.messages.map((m) => m.content)).toEqual([
      `hello ${text}`,
      'quoting you',
      'look https://example.com/p',
      `now ${text} too`,
    ]);
    expect(page.messages[0]!.reactions).toEqual({ '👍': [alice.userId] });
    expect(page.messages[1]!.replyTo).toEqual({ messageId: original.id, content: `hello ${text}`, authorName: author });
    expect(page.messages[2]!.linkPreview).toEqual(preview);
    const synced = await messaging.service.syncMessages(bobActor, { workspaceId: ws, afterSeq: 0, limit: 10 });
    expect(synced.messages.map((m) => m.authorName)).toEqual([author, 'bob', author, 'bob']);
    const summary = (await messaging.service.fetchChannelSummaries(alice)).find((s) => s.channelId === general.id)!;
    expect(summary.lastMessage).toMatchObject({ id: toEdit.id, content: `now ${text} too`, isEdited: true });
    const found = await messaging.service.searchMessages(bobActor, { workspaceId: ws, query: text.toUpperCase() });
    expect(found.map((m) => m.id)).toEqual([toEdit.id, original.id]);
    // a retried send (same client id) is answered with the stored message, opened
    const again = await messaging.service.sendMessage(alice, {
      clientMessageId: original.clientMessageId,
      channelId: general.id,
      content: 'ignored',
      type: 'text',
    });
    expect(again).toMatchObject({ id: original.id, content: `hello ${text}` });

    // The key destroyed (what delete and expiry do first): the room reads as gone on every path.
    await keys.store.destroy(ws);
    await expect(messaging.service.fetchMessages(bobActor, { channelId: general.id, limit: 10 })).rejects.toMatchObject(
      { code: 'WORKSPACE_NOT_FOUND' },
    );
    await expect(messaging.service.searchMessages(bobActor, { workspaceId: ws, query: text })).rejects.toMatchObject({
      code: 'WORKSPACE_NOT_FOUND',
    });
    await expect(send(alice, 'after the key')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
  });
});
