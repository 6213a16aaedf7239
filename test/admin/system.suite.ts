/**
 * The System, Feedback and Settings tabs (docs/product/admin.md ADM9-ADM12), run in both modes by harness.ts:
 * configuration and its bounds,
 * maintenance mode refusing writes (HTTP and socket, on every replica) while reads keep working, the audit trail,
 * feedback, storage usage, backups, and auto-delete removing exactly the eligible accounts (last: it moves the clock).
 */
import { describe, it, expect } from 'vitest';
import type { Socket } from 'socket.io-client';
import {
  ADMIN_API,
  ADMIN_TEXT,
  API,
  AUTH_API,
  C,
  CONTACT_PATH,
  type AdminConfig,
  type AuditEntry,
  type BackupInfo,
  type CleanupStatus,
} from '@ephemera/proto';
import { clientId, connect, createRoom, http, request, socketJoin } from '../helpers/clients.ts';
import { bearer, uniqueEmail } from '../accounts/account-clients.ts';
import type { AdminTarget } from './target.ts';

const DAY_MS = 86_400_000;
const defaults: AdminConfig = {
  maintenanceMode: false,
  maintenanceMessage: null,
  autoDeleteEnabled: false,
  autoDeleteDaysAfterGracePeriod: 90,
};

/** Polls until `done` holds (maintenance reaches each process through the event log: Kafka when distributed). */
async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function systemSuite(target: () => AdminTarget) {
  describe('system', () => {
    const as = () => bearer(target().adminToken);
    const audit = async () => (await http<AuditEntry[]>(target().url, ADMIN_API.audit, { headers: as() })).body;

    it("configuration: defaults, a change answered and kept, every out-of-range day count refused with the spec's text", async () => {
      const t = target();
      expect((await http(t.url, ADMIN_API.config, { headers: as() })).body).toEqual(defaults);
      const put = await http<AdminConfig>(t.url, ADMIN_API.config, {
        method: 'PUT',
        headers: as(),
        body: { autoDeleteDaysAfterGracePeriod: 30 },
      });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ ...defaults, autoDeleteDaysAfterGracePeriod: 30 });
      const enabled = await http<AdminConfig>(t.url, ADMIN_API.config, {
        method: 'PUT',
        headers: as(),
        body: { autoDeleteEnabled: true },
      });
      expect(enabled.body).toEqual({ ...defaults, autoDeleteEnabled: true, autoDeleteDaysAfterGracePeriod: 30 });
      for (const days of [0, 1001, 1.5, 'x', null, -5]) {
        const bad = await http(t.url, ADMIN_API.config, {
          method: 'PUT',
          headers: as(),
          body: { autoDeleteDaysAfterGracePeriod: days },
        });
        expect(bad.status, String(days)).toBe(400);
        expect(bad.body, String(days)).toMatchObject({ code: 'VALIDATION', message: ADMIN_TEXT.autoDeleteDays });
      }
      expect(
        (await http(t.url, ADMIN_API.config, { method: 'PUT', headers: as(), body: { maintenanceMode: true } })).status,
      ).toBe(400);
      expect((await http(t.url, ADMIN_API.config, { method: 'PUT', headers: as(), body: '[1,2' })).status).toBe(400);
      expect((await http(t.url, ADMIN_API.config, { headers: as() })).body).toEqual({
        ...defaults,
        autoDeleteEnabled: true,
        autoDeleteDaysAfterGracePeriod: 30,
      });
      for (const days of [1, 1000]) {
        expect(
          (
            await http<AdminConfig>(t.url, ADMIN_API.config, {
              method: 'PUT',
              headers: as(),
              body: { autoDeleteDaysAfterGracePeriod: days },
            })
          ).body.autoDeleteDaysAfterGracePeriod,
        ).toBe(days);
      }
      const back = await http<AdminConfig>(t.url, ADMIN_API.config, {
        method: 'PUT',
        headers: as(),
        body: { autoDeleteEnabled: false, autoDeleteDaysAfterGracePeriod: 90 },
      });
      expect(back.body).toEqual(defaults);
      const changes = (await audit()).filter((e) => e.action === 'config.changed');
      expect(changes.length).toBeGreaterThanOrEqual(5);
      expect(changes.every((e) => e.admin === t.superadminEmail)).toBe(true);
    });

    it('maintenance: needs a message; while on, writes are refused with it (HTTP and socket, every replica), reads and sign-in work', async () => {
      const t = target();
      for (const body of [{ enabled: true }, { enabled: true, message: '   ' }, { enabled: 'yes', message: 'x' }]) {
        const bad = await http(t.url, ADMIN_API.maintenance, { headers: as(), body });
        expect(bad.status, JSON.stringify(body)).toBe(400);
      }
      expect((await http(t.url, ADMIN_API.maintenance, { headers: as(), body: { enabled: true } })).body.message).toBe(
        ADMIN_TEXT.maintenanceMessageRequired,
      );
      // A room, a channel and a socket on each replica, before maintenance.
      const room = await createRoom(t.url);
      const { socket: a } = await socketJoin(t.url, room.workspaceId, 'alice', room.userToken);
      const sockets: Socket[] = [a];
      const channel = await request(a, C.createChannel, {
        workspaceId: room.workspaceId,
        name: 'maint',
        type: 'topic',
        isPrivate: false,
        memberIds: [],
      });
      if (!channel.success) throw new Error(channel.message);
      const channelId = channel.channel.id;
      if (t.urlB) {
        const b = await connect(t.urlB);
        expect(
          (
            await request(b, C.joinWorkspace, {
              workspaceId: room.workspaceId,
              username: 'alice',
              userToken: room.userToken,
            })
          ).success,
        ).toBe(true);
        sockets.push(b);
      }
      const send = (s: Socket, content: string) =>
        request(s, C.sendMessage, { clientMessageId: clientId(), channelId, content, type: 'text' });
      const first = await send(a, 'before maintenance');
      if (!first.success) throw new Error(first.message);
      const message = `Upgrading the database ${Date.now()}`;
      try {
        const on = await http(t.url, ADMIN_API.maintenance, { headers: as(), body: { enabled: true, message } });
        expect(on.status).toBe(200);
        expect(on.body).toMatchObject({ success: true, enabled: true, message });
        // The banner, for anyone.
        expect((await http(t.url, ADMIN_API.maintenanceStatus)).body).toEqual({ enabled: true, message });
        expect((await http(t.url, ADMIN_API.config, { headers: as() })).body).toMatchObject({
          maintenanceMode: true,
          maintenanceMessage: message,
        });
        // HTTP writes: refused before their bodies are even read (an empty body would be a 400 otherwise).
        const probe = await until(
          () => http(t.url, API.create(), { body: {} }),
          (r) => r.status === 503,
        );
        expect(probe.status).toBe(503);
        expect(probe.body).toEqual({ success: false, code: 'MAINTENANCE', message });
        const create = await http(t.url, API.create(), {
          body: { name: `m${Date.now().toString(36)}`, username: 'bob', hasPassword: false },
        });
        expect(create.status).toBe(503);
        expect(create.body).toMatchObject({ code: 'MAINTENANCE', message });
        const contact = await http(t.url, CONTACT_PATH, {
          body: { name: 'N', email: 'n@example.test', category: 'general', message: 'hi' },
        });
        expect(contact.status).toBe(503);
        // Socket writes, on every replica (probed with mark-read, harmless if it still went through).
        for (const s of sockets) {
          const probed = await until(
            () => request(s, C.markRead, { channelId, seq: 0 }),
            (ack) => !ack.success,
          );
          expect(probed).toEqual({ success: false, code: 'MAINTENANCE', message });
          expect(await send(s, 'during maintenance')).toEqual({ success: false, code: 'MAINTENANCE', message });
          expect(
            await request(s, C.addReaction, {
              workspaceId: room.workspaceId,
              messageId: first.message.id,
              emoji: '👍',
            }),
          ).toMatchObject({ code: 'MAINTENANCE', message });
        }
        // Reads keep working: HTTP GETs, socket fetches and syncs; and the superadmin can still sign in.
        expect((await http(t.url, API.info(room.workspaceId))).status).toBe(200);
        const history = await request(a, C.fetchMessages, { channelId, limit: 50 });
        expect(history.success && history.messages.map((m) => m.content)).toContain('before maintenance');
        expect(history.success && history.messages.map((m) => m.content)).not.toContain('during maintenance');
        expect((await request(a, C.syncMessages, { workspaceId: room.workspaceId, afterSeq: 0 })).success).toBe(true);
        const again = await t.signIn(t.superadminEmail, 'root');
        expect((await http(t.url, ADMIN_API.config, { headers: bearer(again.token) })).status).toBe(200);
      } finally {
        const off = await http(t.url, ADMIN_API.maintenance, { headers: as(), body: { enabled: false } });
        expect(off.body).toMatchObject({ success: true, enabled: false, message: null });
      }
      expect((await http(t.url, ADMIN_API.maintenanceStatus)).body).toEqual({ enabled: false, message: null });
      const created = await until(
        () =>
          http(t.url, API.create(), {
            body: { name: `after${Date.now().toString(36)}`, username: 'bob', hasPassword: false },
          }),
        (r) => r.status === 201,
      );
      expect(created.status).toBe(201);
      for (const s of sockets)
        expect(
          (
            await until(
              () => send(s, 'after maintenance'),
              (ack) => ack.success,
            )
          ).success,
        ).toBe(true);
      for (const s of sockets) s.disconnect();
      // The trail: who switched it, with the message as the reason; newest first.
      const trail = (await audit()).filter((e) => e.action === 'maintenance.changed');
      expect(trail[0]).toMatchObject({ admin: t.superadminEmail, reason: null });
      expect(trail[1]).toMatchObject({ admin: t.superadminEmail, reason: message });
      expect(Date.parse(trail[0]!.at)).toBeGreaterThanOrEqual(Date.parse(trail[1]!.at));
    });

    it('feedback: a contact message listed with counts, its status set, deleted; unknown ids are 404', async () => {
      const t = target();
      const text = `Feedback ${Date.now()}`;
      const sent = await http<{ id: string }>(t.url, CONTACT_PATH, {
        body: { name: 'Fay', email: 'fay@example.test', category: 'feature', message: text },
      });
      expect(sent.status).toBe(201);
      const id = sent.body.id;
      const list = async () =>
        (await http(t.url, ADMIN_API.feedback, { headers: as() })).body as {
          messages: Array<{ id: string; status: string; message: string }>;
          counts: Record<string, number>;
        };
      const before = await list();
      expect(before.messages.find((m) => m.id === id)).toMatchObject({ message: text, status: 'pending' });
      expect(before.counts.total).toBe(before.messages.length);
      const read = await http(t.url, ADMIN_API.feedbackStatus(id), {
        method: 'PUT',
        headers: as(),
        body: { status: 'read' },
      });
      expect(read.body).toMatchObject({ success: true, id, status: 'read' });
      const after = await list();
      expect(after.messages.find((m) => m.id === id)?.status).toBe('read');
      expect(after.counts.read).toBe(before.counts.read + 1);
      expect(after.counts.pending).toBe(before.counts.pending - 1);
      expect(
        (await http(t.url, ADMIN_API.feedbackStatus(id), { method: 'PUT', headers: as(), body: { status: 'done' } }))
          .status,
      ).toBe(400);
      for (const unknown of ['ctm_nope', 'x'.repeat(150), 'a b', '%00']) {
        const s = await http(t.url, ADMIN_API.feedbackStatus(unknown), {
          method: 'PUT',
          headers: as(),
          body: { status: 'read' },
        });
        expect(s.status, unknown).toBe(404);
        expect(s.body.code).toBe('FEEDBACK_NOT_FOUND');
        expect(
          (await http(t.url, ADMIN_API.feedbackItem(unknown), { method: 'DELETE', headers: as() })).status,
          unknown,
        ).toBe(404);
      }
      expect((await http(t.url, ADMIN_API.feedbackItem(id), { method: 'DELETE', headers: as() })).body).toEqual({
        success: true,
        id,
      });
      expect((await list()).messages.some((m) => m.id === id)).toBe(false);
      expect((await http(t.url, ADMIN_API.feedbackItem(id), { method: 'DELETE', headers: as() })).status).toBe(404);
      const trail = await audit();
      expect(trail.find((e) => e.action === 'feedback.status-changed' && e.target === id)?.admin).toBe(
        t.superadminEmail,
      );
      expect(trail.find((e) => e.action === 'feedback.deleted' && e.target === id)?.admin).toBe(t.superadminEmail);
    });

    it('storage usage and backups: generate, list, download; an unknown or tampered file is refused; a good one imports', async () => {
      const t = target();
      const storage = async () =>
        (await http(t.url, ADMIN_API.storageUsage, { headers: as() })).body as {
          databaseSize: number;
          memoryUsage: number;
          backupCount: number;
          databaseSizeUnit: string;
        };
      const s0 = await storage();
      expect(Number.isInteger(s0.databaseSize) && s0.databaseSize >= 0).toBe(true);
      expect(s0.databaseSizeUnit).toBe('rows');
      expect(s0.memoryUsage).toBeGreaterThan(1_000_000);
      const generated = await http<{ success: boolean; backup: BackupInfo }>(t.url, ADMIN_API.backupGenerate, {
        headers: as(),
        body: {},
      });
      expect(generated.status).toBe(200);
      const backup = generated.body.backup;
      expect(backup).toMatchObject({ downloadUrl: ADMIN_API.backupDownload(backup.filename) });
      expect(backup.filename).toMatch(/^admin-backup-.+\.json$/);
      expect(backup.size).toBeGreaterThan(100);
      const list = (await http<BackupInfo[]>(t.url, ADMIN_API.backupList, { headers: as() })).body;
      expect(list[0]).toEqual(backup);
      expect((await storage()).backupCount).toBe(s0.backupCount + 1);
      const download = await fetch(t.url + backup.downloadUrl, { headers: as() });
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toMatch(
        new RegExp(`^attachment; filename="?${backup.filename.replaceAll('.', '\\.')}"?$`),
      );
      const bytes = Buffer.from(await download.arrayBuffer());
      expect(bytes.length).toBe(backup.size);
      expect(JSON.parse(bytes.toString())).toMatchObject({
        format: 'ephemera-admin-backup',
        version: 3,
        chunks: expect.any(Array),
        checksum: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      for (const name of ['admin-backup-2020-01-01T00-00-00-000Z-00000000.json', '..%2F..%2Fetc%2Fpasswd', '%2e%2e']) {
        const missing = await http(t.url, `/api/admin/backup/download/${name}`, { headers: as() });
        expect(missing.status, name).toBe(404);
      }
      expect((await fetch(t.url + backup.downloadUrl)).status).toBe(401); // anonymous
      const upload = (file: Buffer, name = 'restore.json', field = 'backup') => {
        const form = new FormData();
        form.append(field, new Blob([new Uint8Array(file)]), name);
        return fetch(t.url + ADMIN_API.backupImport, { method: 'POST', headers: as(), body: form });
      };
      const tampered = Buffer.from(bytes);
      const at = tampered.indexOf('\n') + 40; // inside the first sealed segment
      tampered[at] = tampered[at] === 0x41 ? 0x42 : 0x41;
      for (const [file, name, field] of [
        [tampered, 'b.json', 'backup'],
        [Buffer.from('not json'), 'b.json', 'backup'],
        [bytes, 'b.txt', 'backup'],
        [bytes, 'b.json', 'file'],
      ] as const) {
        const res = await upload(file, name, field);
        expect(res.status, `${name} ${field}`).toBe(400);
        expect((await res.json()).code).toBe('BACKUP_INVALID');
      }
      const imported = await upload(bytes);
      const answer = await imported.json();
      expect(imported.status, JSON.stringify(answer)).toBe(200);
      expect(answer).toMatchObject({ success: true, sameLog: true });
      const trail = await audit();
      expect(trail[0]).toMatchObject({ action: 'backup.imported', admin: t.superadminEmail });
      expect(trail.some((e) => e.action === 'backup.generated' && e.target === backup.filename)).toBe(true);
      expect((await http(t.url, ADMIN_API.config, { headers: as() })).body).toEqual(defaults);
    });

    it('database cleanup removes expired credentials and is audited', async () => {
      const t = target();
      const res = await http<{ success: boolean; removed: number }>(t.url, ADMIN_API.databaseCleanup, {
        headers: as(),
        body: {},
      });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(Number.isInteger(res.body.removed) && res.body.removed >= 0).toBe(true);
      expect((await audit())[0]).toMatchObject({ action: 'database.cleanup', admin: t.superadminEmail });
    });

    // Last: it moves the clock 9 days forward.
    it('auto-delete: exactly the accounts inactive past 7 + N days are eligible and deleted, one run at a time', async () => {
      const t = target();
      await http(t.url, ADMIN_API.config, {
        method: 'PUT',
        headers: as(),
        body: { autoDeleteDaysAfterGracePeriod: 1 },
      });
      const idle = [await t.signIn(uniqueEmail('idle'), 'idle'), await t.signIn(uniqueEmail('idle'), 'idle2')];
      const idOf = new Map<string, string>();
      for (const u of idle)
        idOf.set(u.email, (await http(t.url, AUTH_API.profile, { headers: bearer(u.token) })).body.user.id);
      const active = await t.signIn(uniqueEmail('active'), 'active');
      const status = async () => (await http<CleanupStatus>(t.url, ADMIN_API.cleanupStatus, { headers: as() })).body;
      const emails = (s: CleanupStatus) => s.eligibleUsers.map((u) => u.email);
      expect(emails(await status())).not.toContain(idle[0]!.email);
      t.advanceClock(9 * DAY_MS);
      expect((await http(t.url, AUTH_API.profile, { headers: bearer(active.token) })).status).toBe(200); // the active one uses its session
      const before = await status();
      expect(before.isRunning).toBe(false);
      for (const u of idle)
        expect(before.eligibleUsers.find((e) => e.email === u.email)).toEqual({
          email: u.email,
          subscriptionTier: 'free',
          daysSinceEligible: 1,
        });
      expect(emails(before)).not.toContain(active.email);
      expect(emails(before)).not.toContain(t.superadminEmail);
      expect(before.currentEligibleUsers).toBe(before.eligibleUsers.length);
      const eligible = emails(before);
      // Two runs at once: one deletes, the other is refused.
      const [r1, r2] = await Promise.all(
        [1, 2].map(() => http(t.url, ADMIN_API.cleanupRun, { headers: as(), body: {} })),
      );
      const statuses = [r1!.status, r2!.status].sort();
      expect(statuses).toEqual([200, 409]);
      const done = (r1!.status === 200 ? r1 : r2)!.body;
      expect(done).toMatchObject({
        success: true,
        eligibleCount: eligible.length,
        deletedCount: eligible.length,
        failedCount: 0,
      });
      for (const u of idle)
        expect((await http(t.url, AUTH_API.profile, { headers: bearer(u.token) })).status, u.email).toBe(401);
      expect((await http(t.url, AUTH_API.profile, { headers: bearer(active.token) })).status).toBe(200);
      expect((await http(t.url, ADMIN_API.config, { headers: as() })).status).toBe(200);
      const after = await status();
      expect(after).toMatchObject({
        currentEligibleUsers: 0,
        eligibleUsers: [],
        lastDeletionCount: eligible.length,
        isRunning: false,
      });
      expect(after.deletedUsersCount).toBeGreaterThanOrEqual(eligible.length);
      expect(Date.parse(after.lastRunAt!)).toBeGreaterThan(0);
      // A deleted account is named by the id it had: its e-mail went with its key (docs/crypto.md, "Accounts"). The
      // trail shows it so once the deletion reaches the directory (distributed: from Kafka, a moment later).
      const named = (trail: AuditEntry[]) =>
        idle.every((u) => trail.some((e) => e.action === 'user.deleted' && e.target === idOf.get(u.email)));
      await expect.poll(async () => named(await audit()), { timeout: 15_000, interval: 100 }).toBe(true);
      const trail = await audit();
      for (const u of idle) {
        expect(trail.find((e) => e.action === 'user.deleted' && e.target === idOf.get(u.email))).toMatchObject({
          reason: 'auto-delete: inactive',
          admin: t.superadminEmail,
        });
        expect(JSON.stringify(trail)).not.toContain(u.email);
      }
      expect(
        trail.filter((e) => e.action === 'user.deleted' && e.reason === 'auto-delete: inactive').length,
      ).toBeGreaterThanOrEqual(eligible.length);
      expect(trail.some((e) => e.action === 'cleanup.run')).toBe(true);
      // Nothing left to delete: a second run deletes nothing.
      expect((await http(t.url, ADMIN_API.cleanupRun, { headers: as(), body: {} })).body).toMatchObject({
        eligibleCount: 0,
        deletedCount: 0,
      });
      // The expired sign-in codes of these accounts are now the database cleanup's.
      expect(
        (await http<{ removed: number }>(t.url, ADMIN_API.databaseCleanup, { headers: as(), body: {} })).body.removed,
      ).toBeGreaterThan(0);
      await http(t.url, ADMIN_API.config, {
        method: 'PUT',
        headers: as(),
        body: { autoDeleteDaysAfterGracePeriod: 90 },
      });
    });
  });
}
