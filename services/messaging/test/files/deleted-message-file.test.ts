/**
 * Deleting a message destroys what it said, not only hides it: its row keeps no sealed body (nothing left to open
 * even with the room's key), its file's row goes (file.removed, reason message-deleted) and the file's bytes and
 * thumbnail are deleted from storage; the file can no longer be downloaded. A message sent again with the same
 * client id after the deletion still dedupes to the (empty) tombstone.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { allowedSamples } from '../../../../test/suites/files.fixtures.ts';
import { startFilesWorld } from './files-world.ts';

describe("a deleted message's content and file are destroyed", async () => {
  const world = await startFilesWorld();
  afterAll(() => world.stop());

  it('no sealed body, no file row, no stored bytes', async () => {
    const { actor, channelId } = await world.room();
    const photo = (await allowedSamples()).find((s) => s.name === 'photo.png')!;
    const file = await world.upload(actor, { channelId, caption: 'holiday' }, photo);
    expect(world.storedObjects(actor.workspaceId)).toEqual([file.id, `${file.id}.thumb`]);
    const clientMessageId = `c-${Date.now()}`;
    const message = await world.messaging.service.sendMessage(actor, {
      clientMessageId,
      channelId,
      content: 'holiday',
      type: 'file',
      fileId: file.id,
    });
    const text = await world.messaging.service.sendMessage(actor, {
      clientMessageId: `${clientMessageId}-t`,
      channelId,
      content: 'secret words',
      type: 'text',
    });

    await world.messaging.service.deleteMessage(actor, { workspaceId: actor.workspaceId, messageId: message.id });
    await world.messaging.service.deleteMessage(actor, { workspaceId: actor.workspaceId, messageId: text.id });

    const rows = (
      await world.pool.query('SELECT id, sealed_body, deleted FROM messaging.messages WHERE id = ANY ($1)', [
        [message.id, text.id],
      ])
    ).rows;
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r).toMatchObject({ sealed_body: null, deleted: true });
    expect((await world.pool.query('SELECT 1 FROM messaging.files WHERE id = $1', [file.id])).rows).toHaveLength(0);
    expect(world.storedObjects(actor.workspaceId)).toEqual([]);
    await expect(world.files.download(actor, file.id, 'file', undefined)).rejects.toMatchObject({
      code: 'FILE_NOT_FOUND',
    });

    // The tombstone still answers a retried send (same client id): the same message id, nothing of its content.
    const retried = await world.messaging.service.sendMessage(actor, {
      clientMessageId: `${clientMessageId}-t`,
      channelId,
      content: 'secret words',
      type: 'text',
    });
    expect(retried).toMatchObject({ id: text.id, content: '', file: null });
  });
});
