/**
 * The superadmin's moderation viewer (AdminMessaging, docs/product/admin.md ADM7) on the real room and messaging
 * modules: a room's
 * latest messages across its channels, opened with the room's key, each with its channel's name (kept sealed in the
 * read model) and type. A stored message whose ciphertext does not open (here: one byte of it changed in
 * PostgreSQL, as a tampered backup would) is listed as a Decrypt Error with no content, and the others still open.
 */
import { describe, it, expect, afterAll } from 'vitest';
import type { SessionActor } from '@ephemera/proto';
import { createLogger } from '@ephemera/platform';
import { clientId } from '../../../test/helpers/clients.ts';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';
import { startMessagingModule } from '../src/index.ts';

const logger = createLogger('test', 'silent');

/** the same sealed text with one base64url character of its ciphertext changed (AES-GCM refuses it) */
function tampered(sealed: string): string {
  const at = sealed.length - 10;
  return sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
}

describe('moderation viewer (AdminMessaging)', async () => {
  const world = await startRoomWorld();
  const { databaseUrl, pool, log, keys, room } = world;
  const messaging = await startMessagingModule({
    databaseUrl,
    pool,
    log,
    logger,
    logSharesDatabase: true,
    keyring: keys.keyring,
  });
  world.stopFirst(() => messaging.stop());
  afterAll(() => world.stop());

  it('opens the newest messages across channels with channel names and types; a message that does not open is a Decrypt Error', async () => {
    const created = await room.service.createWorkspace({
      name: `moderated-${Date.now().toString(36)}`,
      username: 'alice',
    });
    const ws = created.workspaceId;
    const alice: SessionActor = { workspaceId: ws, userId: created.user.id, username: 'alice' };
    const bob = await room.service.joinWorkspace(ws, { username: 'bob' });
    const general = await room.service.createChannel(alice, {
      workspaceId: ws,
      name: 'general',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    const secret = await room.service.createChannel(alice, {
      workspaceId: ws,
      name: 'secret',
      type: 'topic',
      isPrivate: true,
      memberIds: [],
    });
    const dm = await room.service.createDmChannel(alice, { workspaceId: ws, targetUserId: bob.user.id });
    await room.service.renameChannel(alice, { workspaceId: ws, channelId: secret.id, newName: 'hush' });
    const send = (channelId: string, content: string) =>
      messaging.service.sendMessage(alice, { clientMessageId: clientId(), channelId, content, type: 'text' });
    await send(general.id, 'first');
    const broken = await send(secret.id, 'to be tampered');
    await send(dm.id, 'private words');
    await send(general.id, 'newest');

    const { rows } = await pool.query(
      'SELECT sealed_body, (SELECT sealed_name FROM messaging.channels WHERE id = $2) AS name FROM messaging.messages WHERE id = $1',
      [broken.id, secret.id],
    );
    expect(rows[0].name).not.toContain('hush'); // the channel's name is sealed too
    await pool.query('UPDATE messaging.messages SET sealed_body = $2 WHERE id = $1', [
      broken.id,
      tampered(rows[0].sealed_body),
    ]);

    const messages = await messaging.admin.moderationMessages({ workspaceId: ws, limit: 50 });
    expect(messages.map((m) => [m.content, m.channelName, m.channelType, m.isDecrypted])).toEqual([
      ['first', 'general', 'topic', true],
      ['', 'hush', 'private', false],
      ['private words', dm.name, 'dm', true],
      ['newest', 'general', 'topic', true],
    ]);
    const failed = messages[1]!;
    expect(failed).toMatchObject({
      id: broken.id,
      authorName: 'Unknown',
      decryptError: expect.stringContaining('does not open'),
    });
    for (const m of [messages[0]!, messages[2]!, messages[3]!])
      expect(m).toMatchObject({ authorName: 'alice', decryptError: null, type: 'text' });

    expect((await messaging.admin.moderationMessages({ workspaceId: ws, limit: 2 })).map((m) => m.content)).toEqual([
      'private words',
      'newest',
    ]);
    await expect(messaging.admin.moderationMessages({ workspaceId: ws, limit: 51 })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await expect(messaging.admin.moderationMessages({ workspaceId: 'no-such-room', limit: 50 })).rejects.toMatchObject({
      code: 'WORKSPACE_NOT_FOUND',
    });
  });
});
