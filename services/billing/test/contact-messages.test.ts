/**
 * Contact messages are billing's events (contact.message-received, -status-changed, -deleted on the billing topic):
 * the read model is their projection (a replay into an empty database rebuilds it), each message is sealed under a
 * key of its own (no name, e-mail or text readable in the log), and removing a message destroys that key before the
 * readable tombstone, so a replay does not bring it back. What the admin's Feedback tab needs: list, counts, status.
 */
import { describe, it, expect, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { TOPICS, type AccountRoomsApi } from '@ephemera/proto';
import { EmbeddedEventLog, createLogger, createPool, fileRoomKeys, sealedEventLog } from '@ephemera/platform';
import { startBillingModule } from '../src/index.ts';
import { createTestDatabase, databaseWithLogOf } from '../../../test/helpers/db.ts';

const logger = createLogger('test', 'silent');
const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'billing-contact-keys-'));
afterAll(() => fs.rmSync(keyDir, { recursive: true, force: true }));
const masterKey = randomBytes(32);
const noRooms = {} as AccountRoomsApi; // contact messages never ask the room service

async function boot(databaseUrl: string) {
  const pool = createPool(databaseUrl);
  const keys = fileRoomKeys(keyDir, masterKey);
  const log = sealedEventLog(new EmbeddedEventLog(pool), keys.keyring);
  await log.init(Object.values(TOPICS));
  const billing = await startBillingModule({ databaseUrl, pool, log, logger, accountKeys: keys.store, rooms: noRooms });
  return {
    pool,
    contact: billing.service.contact,
    async stop() {
      await billing.stop();
      await log.close();
      await pool.end();
    },
  };
}

const rows = async (pool: import('pg').Pool) =>
  (
    await pool.query(
      'SELECT id, name, email, category, message, status, received_at, status_changed_at, last_seq FROM billing.contact_messages ORDER BY id',
    )
  ).rows;

describe('contact messages (billing)', () => {
  it('are recorded as sealed events; status and removal are events too; a replay rebuilds the same table without the removed one', async () => {
    const live = await boot(await createTestDatabase());
    const rebuiltUrl: { url?: string } = {};
    try {
      const c = live.contact;
      const kept = await c.receive({
        name: 'Kept Person',
        email: 'Kept@Example.test',
        category: 'billing',
        message: 'A question about my invoice',
      });
      const answered = await c.receive({
        name: 'Answered',
        email: 'answered@example.test',
        category: 'feature',
        message: 'Please add dark mode',
      });
      const gone = await c.receive({
        name: 'Gone Person',
        email: 'gone@example.test',
        category: 'other',
        message: 'Forget me',
      });
      expect(await c.counts()).toEqual({ total: 3, pending: 3, read: 0, responded: 0, archived: 0 });

      expect((await c.setStatus(answered.id, 'read')).status).toBe('read');
      expect((await c.setStatus(answered.id, 'responded')).status).toBe('responded');
      expect((await c.setStatus(answered.id, 'responded')).status).toBe('responded'); // same status: nothing recorded
      await expect(c.setStatus(kept.id, 'done')).rejects.toMatchObject({ code: 'VALIDATION' });
      await expect(c.setStatus('ctm_nothing', 'read')).rejects.toMatchObject({ code: 'MESSAGE_NOT_FOUND' });
      await c.remove(gone.id);
      await expect(c.remove(gone.id)).rejects.toMatchObject({ code: 'MESSAGE_NOT_FOUND' });
      await expect(c.setStatus(gone.id, 'read')).rejects.toMatchObject({ code: 'MESSAGE_NOT_FOUND' });

      expect(await c.counts()).toEqual({ total: 2, pending: 1, read: 0, responded: 1, archived: 0 });
      expect((await c.list()).map((m) => m.id)).toEqual([answered.id, kept.id]); // newest first
      expect((await c.list({ status: 'pending' })).map((m) => m.id)).toEqual([kept.id]);
      expect(await c.byId(kept.id)).toMatchObject({
        name: 'Kept Person',
        email: 'kept@example.test',
        category: 'billing',
        status: 'pending',
      });
      const before = await rows(live.pool);
      expect(before.find((r) => r.id === answered.id)).toMatchObject({ status: 'responded', last_seq: 3 });

      const log = (
        await live.pool.query(`SELECT event::text AS e FROM event_log WHERE topic = $1`, [TOPICS.billing])
      ).rows.map((r) => r.e as string);
      expect(log.filter((e) => e.includes('"contact.message-received"'))).toHaveLength(3);
      expect(log.filter((e) => e.includes('"contact.message-status-changed"'))).toHaveLength(2);
      expect(log.filter((e) => e.includes('"contact.message-deleted"'))).toHaveLength(1);
      const raw = log.join('\n');
      for (const secret of ['example.test', 'Kept Person', 'invoice', 'Forget me', 'dark mode'])
        expect(raw).not.toContain(secret);
      expect(fs.existsSync(path.join(keyDir, `${kept.id}.key`))).toBe(true);
      expect(fs.existsSync(path.join(keyDir, `${gone.id}.key`))).toBe(false); // destroyed before the tombstone

      rebuiltUrl.url = await databaseWithLogOf(live.pool);
      const rebuilt = await boot(rebuiltUrl.url);
      try {
        expect(await rows(rebuilt.pool)).toEqual(before);
        expect(await rebuilt.contact.byId(gone.id)).toBeNull();
      } finally {
        await rebuilt.stop();
      }
    } finally {
      await live.stop();
    }
  });

  it("refuses an invalid message before admitting it (the caller's rate limit is not consulted) and stores nothing", async () => {
    const live = await boot(await createTestDatabase());
    try {
      let admitted = 0;
      const admit = async () => {
        admitted += 1;
      };
      await expect(
        live.contact.receive({ name: 'A', email: 'bad', category: 'general', message: 'x' }, admit),
      ).rejects.toMatchObject({ code: 'VALIDATION' });
      expect(admitted).toBe(0);
      await expect(
        live.contact.receive({ name: 'A', email: 'a@example.test', category: 'general', message: 'x' }, async () => {
          throw new Error('limited');
        }),
      ).rejects.toThrow('limited');
      expect((await live.contact.counts()).total).toBe(0);
      const ok = await live.contact.receive(
        { name: 'A', email: 'a@example.test', category: 'GENERAL', message: 'x' },
        admit,
      );
      expect(admitted).toBe(1);
      expect((await live.contact.byId(ok.id))?.category).toBe('general');
    } finally {
      await live.stop();
    }
  });
});
