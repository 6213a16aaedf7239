/**
 * A file whose row stands but whose bytes are gone from storage (a backup restored into a storage that never held
 * them: uploaded files are not in the backup, docs/administration.md "Backups"): asking for its link answers
 * FILE_NOT_FOUND, which the browser shows as "This file is no longer available" (MessageAttachment), instead of a
 * link that breaks. A file whose bytes are there still gets its link.
 */
import fs from 'node:fs';
import { describe, it, expect, afterAll } from 'vitest';
import { allowedSamples } from '../../../../test/suites/files.fixtures.ts';
import { startFilesWorld } from './files-world.ts';

describe("a file's link when its bytes are gone", async () => {
  const world = await startFilesWorld();
  afterAll(() => world.stop());

  it('FILE_NOT_FOUND without the bytes; a link with them', async () => {
    const { actor, channelId } = await world.room();
    const photo = (await allowedSamples()).find((s) => s.name === 'photo.png')!;
    const kept = await world.upload(actor, { channelId, caption: 'kept' }, photo);
    const lost = await world.upload(actor, { channelId, caption: 'lost' }, photo);
    expect((await world.files.link(actor, kept.id)).url).toContain(kept.id);
    const { rows } = await world.pool.query<{ k: string }>(
      'SELECT storage_key AS k FROM messaging.files WHERE id = $1',
      [lost.id],
    );
    const where = world.storagePath(rows[0]!.k);
    fs.rmSync(where);
    await expect(world.files.link(actor, lost.id)).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    expect((await world.files.link(actor, kept.id)).url).toContain(kept.id);
  });
});
