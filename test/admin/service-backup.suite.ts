/**
 * The service backup restores the service (docs/administration.md "Backups", docs/crypto.md "Backups"): a room
 * that lives on (extended by the superadmin, with a channel and messages), a room that ends between the backup and
 * the restore, accounts. Generate; the room's lifetime ends; every read model of room, messaging, billing and
 * admin-analytics is wiped and the room keys deleted; the superadmin signs in again (as after a loss) and imports.
 * Then every table of room, messaging and billing compares equal with the state at the backup (the ended room's
 * rows left out on both sides), the living room's key is back byte for byte as it was at rest, its messages open,
 * and the ended room is gone with its key. The new internal routes answer no public caller.
 */
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import {
  ADMIN_API,
  API,
  C,
  LIFETIME_MS,
  backupPartExportPath,
  backupPartPrefix,
  type BackupInfo,
} from '@ephemera/proto';
import { clientId, createRoom, http, request, socketJoin } from '../helpers/clients.ts';
import type { AdminTarget } from './target.ts';

const SCHEMAS = ['room', 'messaging', 'billing', 'admin'] as const;
/** tables not in the backup, which an in-place restore keeps as they are: this test's wipe empties them */
const NOT_BACKED_UP = ['billing.deleted_accounts', 'messaging.storage_reservations'];
/**
 * admin-analytics' tables the log replayed after a same-log restore adds to (their rows of the backup stay): an
 * activity that reaches the log after the backup (a socket's session closing late on a loaded machine) adds its
 * actor's row to daily_active as it does to actor_last_active, and moves that day's totals kept beside them
 * (daily_activity: the same day's row, other figures)
 */
const REPLAYED = [
  'accounts',
  'actor_last_active',
  'audit',
  'daily_active',
  'daily_activity',
  'daily_counts',
  'processed_events',
];

/** names the step a socket timeout happened in */
async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new Error(`${name}: ${(err as Error).message}`, { cause: err });
  }
}

export function serviceBackupSuite(target: () => AdminTarget) {
  describe('the service backup (docs/administration.md Backups)', () => {
    /** every table of the schema: row count and a hash of its rows in a fixed order, rows naming `leaveOut` left out */
    async function tables(schema: string, leaveOut: string[]): Promise<Record<string, string>> {
      const t = target();
      const { rows } = await t.data.query<{ t: string }>(
        "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1",
        [schema],
      );
      const out: Record<string, string> = {};
      for (const { t: table } of rows.filter((r) => !NOT_BACKED_UP.includes(`${schema}.${r.t}`))) {
        const { rows: h } = await t.data.query<{ h: string; n: string }>(
          `SELECT md5(coalesce(string_agg(x::text, E'\\n' ORDER BY x::text), '')) AS h, count(*)::text AS n FROM ${schema}."${table}" x
           WHERE NOT (x::text LIKE ANY($1::text[]))`,
          [leaveOut.map((id) => `%${id}%`)],
        );
        out[table] = `${h[0]!.n}:${h[0]!.h}`;
      }
      return out;
    }
    /** a table's keys (its first column) as text: which rows it has, not what a later event wrote in them */
    const keysOf = async (schema: string, table: string) => {
      const {
        rows: [first],
      } = await target().data.query<{ c: string }>(
        'SELECT column_name AS c FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND ordinal_position = 1',
        [schema, table],
      );
      return (
        await target().data.query<{ r: string }>(`SELECT "${first!.c}"::text AS r FROM ${schema}."${table}"`)
      ).rows.map((x) => x.r);
    };
    const all = async (leaveOut: string[]) =>
      Object.fromEntries(await Promise.all(SCHEMAS.map(async (s) => [s, await tables(s, leaveOut)] as const)));

    /** the read models stand still (every consumer caught up): two reads a second apart agree */
    async function settled(leaveOut: string[]) {
      let last = JSON.stringify(await all(leaveOut));
      for (let i = 0; i < 60; i++) {
        await new Promise((r) => setTimeout(r, 1000));
        const now = JSON.stringify(await all(leaveOut));
        if (now === last) return JSON.parse(now) as Awaited<ReturnType<typeof all>>;
        last = now;
      }
      throw new Error('the read models did not settle');
    }

    it('generate, wipe, import: room, messaging and billing compare equal; a room ended meanwhile is gone with its key', async () => {
      const t = target();
      const as = (token = t.adminToken) => ({ authorization: `Bearer ${token}` });
      // a room that lives on: extended by 30 days, with a channel and messages
      const living = await createRoom(t.url);
      const { socket } = await step('join before', () =>
        socketJoin(t.url, living.workspaceId, 'alice', living.userToken),
      );
      const channel = await step('create channel', () =>
        request(socket, C.createChannel, {
          workspaceId: living.workspaceId,
          name: 'talk',
          type: 'topic',
          isPrivate: false,
          memberIds: [],
        }),
      );
      if (!channel.success) throw new Error(channel.message);
      for (const content of ['first words', 'second words']) {
        // The same clientMessageId again after an ack timeout (a retried send is stored once: docs/protocol.md P2):
        // this suite checks the backup, and a loaded CI run once took over 10 s to answer a send here.
        const input = { clientMessageId: clientId(), channelId: channel.channel.id, content, type: 'text' as const };
        const sent = await step('send', async () => {
          for (let attempt = 1; ; attempt += 1) {
            try {
              return await request(socket, C.sendMessage, input);
            } catch (err) {
              if (attempt === 3) throw err;
            }
          }
        });
        expect(sent.success).toBe(true);
      }
      socket.disconnect();
      expect(
        (await http(t.url, ADMIN_API.extendRoom(living.workspaceId), { headers: as(), body: { hours: 720 } })).status,
      ).toBe(200);
      // a free room: its lifetime ends before the restore
      const ending = await createRoom(t.url);
      const keyOf = (id: string) => path.join(t.data.roomKeyDir, `${id}.key`);
      const livingKey = fs.readFileSync(keyOf(living.workspaceId), 'utf8');
      expect(fs.existsSync(keyOf(ending.workspaceId))).toBe(true);

      // every room whose lifetime ends with the free room's (the other suites' free rooms too)
      const { rows: endingRows } = await t.data.query<{ id: string }>(
        `SELECT id FROM room.workspaces WHERE expires_at <= (SELECT expires_at FROM room.workspaces WHERE id = $1) + interval '30 seconds' ORDER BY id`,
        [ending.workspaceId],
      );
      const ended = endingRows.map((r) => r.id);
      expect(ended).toContain(ending.workspaceId);
      expect(ended).not.toContain(living.workspaceId);
      // the backup is of a state seen before and after it was made (nothing moved meanwhile), else it is made again
      let generated: { status: number; body: { success: boolean; backup: BackupInfo } } | null = null;
      let atBackup: Awaited<ReturnType<typeof all>> | null = null;
      for (let attempt = 0; attempt < 5 && !atBackup; attempt++) {
        const before = await settled(ended);
        generated = await http<{ success: boolean; backup: BackupInfo }>(t.url, ADMIN_API.backupGenerate, {
          headers: as(),
          body: {},
        });
        expect(generated.status, JSON.stringify(generated.body)).toBe(200);
        const after = await all(ended);
        const still = (x: typeof after) => JSON.stringify(SCHEMAS.filter((s) => s !== 'admin').map((s) => x[s])); // admin records the generate
        if (still(after) === still(before)) atBackup = after;
      }
      if (!generated || !atBackup) throw new Error('the read models kept moving around every backup');
      const backupRows = Object.fromEntries(
        await Promise.all(REPLAYED.map(async (x) => [x, await keysOf('admin', x)] as const)),
      );
      const bytes = Buffer.from(
        await (await fetch(t.url + generated.body.backup.downloadUrl, { headers: as() })).arrayBuffer(),
      );

      t.advanceClock(LIFETIME_MS.free! + 60_000); // the free room's lifetime ends
      // the loss: every read model of the four services and the room keys
      for (const schema of SCHEMAS) {
        const { rows } = await t.data.query<{ t: string }>(
          "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'",
          [schema],
        );
        await t.data.query(`TRUNCATE ${rows.map((r) => `${schema}."${r.t}"`).join(', ')} CASCADE`);
      }
      fs.rmSync(keyOf(living.workspaceId));
      for (const id of ended) fs.rmSync(keyOf(id), { force: true });
      expect((await http(t.url, ADMIN_API.backupList, { headers: as() })).status).toBe(401); // the superadmin's session went too

      const again = await t.signIn(t.superadminEmail, 'root');
      const form = new FormData();
      form.append('backup', new Blob([new Uint8Array(bytes)]), generated.body.backup.filename);
      const imported = await fetch(t.url + ADMIN_API.backupImport, {
        method: 'POST',
        headers: as(again.token),
        body: form,
      });
      expect(imported.status, await imported.clone().text()).toBe(200);
      expect(await imported.json()).toMatchObject({ success: true, endedRooms: ended.length });

      const restored = await all(ended);
      for (const schema of ['room', 'messaging', 'billing'] as const)
        expect(restored[schema], schema).toEqual(atBackup[schema]);
      // among them the wrapped keys of the living room's messages (docs/crypto.md "Messages"): their bodies open
      const messageKeys = await t.data.query('SELECT 1 FROM messaging.message_keys WHERE workspace_id = $1', [
        living.workspaceId,
      ]);
      expect(messageKeys.rows.length).toBeGreaterThan(0);
      // admin-analytics: its read models are the backup's with the log since the backup replayed over them (same
      // log): the superadmin's new account and activity, the import's audit entry, the new day's counts, those events
      for (const table of Object.keys(atBackup.admin).filter((x) => !REPLAYED.includes(x)))
        expect(restored.admin[table], `admin.${table}`).toBe(atBackup.admin[table]);
      for (const table of REPLAYED) {
        const now = new Set(await keysOf('admin', table));
        for (const row of backupRows[table]!) expect(now.has(row), `admin.${table} keeps ${row}`).toBe(true);
      }
      // the living room: its key back as it was at rest, its messages open; the ended room: gone, its key too
      expect(fs.readFileSync(keyOf(living.workspaceId), 'utf8')).toBe(livingKey);
      for (const id of ended) expect(fs.existsSync(keyOf(id)), id).toBe(false);
      expect((await http(t.url, API.info(ending.workspaceId))).status).toBe(404);
      const back = await step('join after the restore', () =>
        socketJoin(t.url, living.workspaceId, 'alice', living.userToken),
      );
      const joined = await step('join-channel after the restore', () =>
        request(back.socket, C.joinChannel, { channelId: channel.channel.id }),
      );
      back.socket.disconnect();
      if (!joined.success) throw new Error(joined.message);
      expect(joined.messages.map((m) => m.content)).toEqual(['first words', 'second words']);
      // the sessions at the backup are back: the superadmin's first token works again
      expect((await http(t.url, ADMIN_API.backupList, { headers: as() })).status).toBe(200);
    }, 240_000);

    it("the parts' internal routes answer no public caller", async () => {
      const t = target();
      for (const part of ['room', 'messaging', 'billing'] as const) {
        for (const p of [backupPartExportPath(part), `${backupPartPrefix(part)}/importCommit`]) {
          for (const token of [undefined, t.user.token, t.adminToken]) {
            const res = await fetch(t.url + p, {
              method: 'POST',
              headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
              body: '{}',
            });
            expect([401, 404], `${p} answered ${res.status}`).toContain(res.status);
            expect(await res.text()).not.toMatch(/"kind":"meta"/);
          }
        }
      }
    });
  });
}
