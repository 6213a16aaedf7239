/**
 * Backups that restore (docs/product/admin.md ADM9; docs/product/security.md S21): an embedded install with rooms,
 * messages, accounts, page views
 * and a room deleted before the backup; the backup generated and downloaded; a FRESH install (a new DATA_DIR with
 * only the master key file copied, from which the backup key derives) imports it, and every admin read-model table
 * is compared by hash with the original's at backup time. A tampered file (one byte) and a non-JSON file are
 * refused and change nothing; the deleted room stays unreadable; an in-place import of an older backup does not
 * bring back a room deleted after it.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_API, API, C, type BackupInfo } from '@ephemera/proto';
import { createLogger, freePort, masterKeyFile, rateLimitConfig, type Pool } from '@ephemera/platform';
import { backupKeyFrom } from '@ephemera/admin-analytics';
import { readBackupFile } from '@ephemera/admin-analytics/src/system/backup/format.ts';
import type { BackupRecord } from '@ephemera/admin-analytics/src/system/backup/records.ts';
import { startEmbedded, type EmbeddedApp } from '../../services/embedded/app.ts';
import { startMailpit, type Mailpit } from '../helpers/mailpit.ts';
import { clientId, createRoom, http, request, socketJoin } from '../helpers/clients.ts';
import { bearer, register, uniqueEmail, type AccountTarget } from '../accounts/account-clients.ts';

const ADMIN = 'superadmin@example.test';
const CANARY = `canary-${Date.now()}-plaintext`;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

interface Install {
  app: EmbeddedApp;
  dataDir: string;
  token: string;
  pool: Pool;
}
let mail: Mailpit;
const dirs: string[] = [];
const installs: EmbeddedApp[] = [];

async function install(dataDir: string): Promise<Install> {
  const app = await startEmbedded({
    port: await freePort(),
    host: '127.0.0.1',
    dataDir,
    logger: createLogger('test', 'silent'),
    smtpUrl: mail.smtpUrl,
    superadminEmail: ADMIN,
    google: null,
    rateLimits: rateLimitConfig(process.env, { signInCodesPerAddress: { points: 1000, durationSec: 3600 } }),
  });
  installs.push(app);
  const token = (await register({ url: app.url, mail } as unknown as AccountTarget, ADMIN, 'root')).token;
  return { app, dataDir, token, pool: app.admin.context.pool };
}

/** every table of schema admin, each as one hash of its rows in a fixed order; `skip` drops rows first */
async function tableHashes(pool: Pool, skip: { auditIds?: string[] } = {}): Promise<Record<string, string>> {
  const { rows: tables } = await pool.query<{ t: string }>(
    "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'admin' AND table_type = 'BASE TABLE' ORDER BY 1",
  );
  const ids = skip.auditIds ?? [];
  const hashes: Record<string, string> = {};
  for (const { t } of tables) {
    const byEvent = t === 'audit' || t === 'cleanup_runs' || t === 'processed_events';
    const { rows } = await pool.query<{ h: string; n: string }>(
      `SELECT md5(coalesce(string_agg(x::text, E'\\n' ORDER BY x::text), '')) AS h, count(*) AS n FROM admin."${t}" x
       ${byEvent ? 'WHERE NOT (x.event_id = ANY($1::uuid[]))' : ''}`,
      byEvent ? [ids] : [],
    );
    hashes[t] = `${rows[0]!.n}:${rows[0]!.h}`;
  }
  return hashes;
}

/** the admin projection has handled everything in the log (its committed offset is the log's head) */
async function caughtUp(pool: Pool): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await pool.query<{ ok: boolean }>(
      `SELECT (SELECT coalesce(max(position), 0) FROM event_log) = (SELECT position FROM event_log_offsets WHERE group_id = 'admin-analytics') AS ok`,
    );
    if (rows[0]?.ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the admin projection did not catch up');
}

async function roomWithMessages(url: string, texts: string[]) {
  const room = await createRoom(url);
  const { socket } = await socketJoin(url, room.workspaceId, 'alice', room.userToken);
  const channel = await request(socket, C.createChannel, {
    workspaceId: room.workspaceId,
    name: 'talk',
    type: 'topic',
    isPrivate: false,
    memberIds: [],
  });
  if (!channel.success) throw new Error(channel.message);
  for (const content of texts) {
    const sent = await request(socket, C.sendMessage, {
      clientMessageId: clientId(),
      channelId: channel.channel.id,
      content,
      type: 'text',
    });
    if (!sent.success) throw new Error(sent.message);
  }
  return { room, socket };
}

const upload = (url: string, token: string, file: Buffer, name = 'backup.json') => {
  const form = new FormData();
  form.append('backup', new Blob([new Uint8Array(file)]), name);
  return fetch(url + ADMIN_API.backupImport, { method: 'POST', headers: bearer(token), body: form });
};
const roomIds = async (pool: Pool) =>
  (await pool.query<{ id: string }>('SELECT id FROM admin.rooms ORDER BY id')).rows.map((r) => r.id);

describe('backups restore into a fresh install', () => {
  beforeAll(async () => {
    mail = await startMailpit();
  }, 60_000);
  afterAll(async () => {
    for (const app of installs) await app.stop().catch(() => {});
    await mail?.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('generate, download, import elsewhere: every read model identical; bad files refused; deleted rooms stay gone', async () => {
    // ---- the original install, with data ----
    const dirA = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-backup-a-'));
    dirs.push(dirA);
    const a = await install(dirA);
    const target = { url: a.app.url, mail } as unknown as AccountTarget;
    for (let i = 0; i < 3; i++) await register(target, uniqueEmail('member'), `member${i}`);
    const kept = await roomWithMessages(a.app.url, ['hello', 'world', 'third']);
    const later = await roomWithMessages(a.app.url, ['to be deleted after the backup']);
    const gone = await roomWithMessages(a.app.url, [CANARY]);
    expect((await request(gone.socket, C.deleteWorkspace, { workspaceId: gone.room.workspaceId })).success).toBe(true);
    for (const p of ['/', '/features', '/about', '/upgrade']) {
      await http(a.app.url, ADMIN_API.pageview, {
        body: { path: p, userAgent: BROWSER },
        headers: { 'user-agent': BROWSER },
      });
    }
    await caughtUp(a.pool);
    expect(await roomIds(a.pool)).toEqual([kept.room.workspaceId, later.room.workspaceId].sort());
    const before = await tableHashes(a.pool);
    expect(Number(before.processed_events!.split(':')[0])).toBeGreaterThan(10);

    const generated = await http<{ backup: BackupInfo }>(a.app.url, ADMIN_API.backupGenerate, {
      headers: bearer(a.token),
      body: {},
    });
    expect(generated.status).toBe(200);
    const download = await fetch(a.app.url + generated.body.backup.downloadUrl, { headers: bearer(a.token) });
    expect(download.status).toBe(200);
    const file = Buffer.from(await download.arrayBuffer());
    // What the file holds: this install's tables at one instant (nothing changed between the hashes and the
    // snapshot: the processed events are the same), its log position, and nothing of the deleted room.
    const copy = path.join(dirA, 'downloaded.json');
    fs.writeFileSync(copy, file);
    const records: BackupRecord[] = [];
    await readBackupFile(copy, backupKeyFrom(masterKeyFile(dirA)), async (r) => {
      records.push(r);
    });
    const adminPart = records.slice(0, records.findIndex((r) => r.kind === 'end') + 1); // admin-analytics' own part comes first
    const rowsOf = (table: string) => adminPart.flatMap((r) => (r.kind === 'rows' && r.table === table ? r.rows : []));
    expect(rowsOf('processed_events').length).toBe(Number(before.processed_events!.split(':')[0]));
    expect(records[0]).toMatchObject({
      kind: 'meta',
      position: { kind: 'embedded', group: 'admin-analytics', logId: expect.stringMatching(/^embedded:/) },
    });
    const plaintext = JSON.stringify(records);
    expect(plaintext).not.toContain(CANARY);
    // the deleted room's id is only in messaging's tombstones (a restore keeps a late event of it out), with no key
    expect(
      JSON.stringify(
        records.filter((r) => !(r.kind === 'rows' && ['expired_workspaces', 'deleted_channels'].includes(r.table))),
      ),
    ).not.toContain(gone.room.workspaceId);
    expect(plaintext).not.toContain(gone.room.name);
    expect(file.toString()).not.toContain(kept.room.name); // encrypted at rest

    // ---- in place: a room deleted after the backup does not come back with it ----
    expect((await request(later.socket, C.deleteWorkspace, { workspaceId: later.room.workspaceId })).success).toBe(
      true,
    );
    await caughtUp(a.pool);
    expect(await roomIds(a.pool)).toEqual([kept.room.workspaceId]);
    const inPlace = await upload(a.app.url, a.token, file);
    const inPlaceAnswer = await inPlace.json();
    expect(inPlace.status, JSON.stringify(inPlaceAnswer)).toBe(200);
    expect(inPlaceAnswer).toMatchObject({ success: true, sameLog: true });
    expect(inPlaceAnswer.replayedEvents).toBeGreaterThan(0);
    // the replay started at the backup's recorded position, not at the log's beginning
    const {
      rows: [log],
    } = await a.pool.query<{ n: string }>('SELECT count(*) AS n FROM event_log');
    const recordedAt = (records[0] as { position: { offsets: Array<{ position: string }> } }).position.offsets[0]!
      .position;
    const {
      rows: [recorded],
    } = await a.pool.query<{ n: string }>('SELECT count(*) AS n FROM event_log WHERE position > $1', [recordedAt]);
    expect(Number(recorded!.n)).toBeLessThan(Number(log!.n));
    expect(inPlaceAnswer.replayedEvents).toBeLessThanOrEqual(Number(recorded!.n));
    expect((await a.pool.query("SELECT 1 FROM event_log_offsets WHERE group_id LIKE 'admin-restore-%'")).rowCount).toBe(
      0,
    );
    expect(await roomIds(a.pool)).toEqual([kept.room.workspaceId]);
    // nor in the room service, nor its key: messaging's live tombstone names it ended (docs/administration.md Backups)
    expect(inPlaceAnswer.endedRooms).toBe(1);
    expect((await http(a.app.url, API.info(later.room.workspaceId))).status).toBe(404);
    expect(fs.existsSync(path.join(dirA, 'keys', `${later.room.workspaceId}.key`))).toBe(false);
    expect((await http(a.app.url, API.info(kept.room.workspaceId))).status).toBe(200);
    const moderation = await http(a.app.url, ADMIN_API.roomMessages(gone.room.workspaceId), {
      headers: bearer(a.token),
    });
    expect(moderation.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(moderation.body)).not.toContain(CANARY);
    for (const s of [kept.socket, later.socket, gone.socket]) s.disconnect();
    await a.app.stop();
    installs.splice(installs.indexOf(a.app), 1);

    // ---- a fresh install with only the master key copied ----
    const dirB = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-backup-b-'));
    dirs.push(dirB);
    fs.copyFileSync(path.join(dirA, 'master.key'), path.join(dirB, 'master.key'));
    const b = await install(dirB);
    await caughtUp(b.pool);
    const fresh = await tableHashes(b.pool);
    // A tampered file (one byte of the ciphertext) and a non-JSON file are refused and change nothing.
    const tampered = Buffer.from(file);
    const at = tampered.indexOf('\n') + 100; // inside the first sealed segment
    tampered[at] = tampered[at] === 0x41 ? 0x42 : 0x41;
    for (const bad of [
      tampered,
      Buffer.from('this is not a backup'),
      Buffer.from(file.toString().replace(/"checksum":"[0-9a-f]/, '"checksum":"z')),
    ]) {
      const res = await upload(b.app.url, b.token, bad);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        success: false,
        code: 'BACKUP_INVALID',
        message: 'Failed to import backup',
      });
    }
    expect(await tableHashes(b.pool)).toEqual(fresh);

    const imported = await upload(b.app.url, b.token, file);
    const answer = await imported.json();
    expect(imported.status, JSON.stringify(answer)).toBe(200);
    expect(answer).toMatchObject({ success: true, sameLog: false, replayedEvents: 0 });
    await caughtUp(b.pool);
    // Every table equals the original's at backup time, but for the import's own audit entry.
    const { rows: own } = await b.pool.query<{ event_id: string }>(
      "SELECT event_id FROM admin.audit WHERE action = 'backup.imported'",
    );
    expect(own).toHaveLength(1);
    expect(await tableHashes(b.pool, { auditIds: own.map((r) => r.event_id) })).toEqual(before);
    // The deleted room stays unreadable there too; the kept room's figures came along.
    expect(await roomIds(b.pool)).toEqual([kept.room.workspaceId, later.room.workspaceId].sort());
    // the import replaced b's accounts and sessions with the backup's: the superadmin's session of a is the one now
    expect((await http(b.app.url, ADMIN_API.backupList, { headers: bearer(b.token) })).status).toBe(401);
    const viewer = await http(b.app.url, ADMIN_API.roomMessages(gone.room.workspaceId), { headers: bearer(a.token) });
    expect(viewer.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(viewer.body)).not.toContain(CANARY);
    const rooms = await http<{ rooms?: Array<{ id: string }> } | Array<{ id: string }>>(b.app.url, ADMIN_API.rooms, {
      headers: bearer(a.token),
    });
    expect(rooms.status).toBe(200);
    expect(JSON.stringify(rooms.body)).not.toContain(gone.room.workspaceId);
  }, 240_000);
});
