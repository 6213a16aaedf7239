/**
 * Canary tests of accounts' crypto-shredding (docs/crypto.md, "Accounts"): an account registers with a canary e-mail
 * and username and is used the ways that write them somewhere (sign-in codes and their limit, sign-in in another
 * case, a second registration, a dashboard room, the superadmin's search, suspension and its audit entries, a
 * backup); then it deletes itself. Used by embedded-account-canary.test.ts and distributed-account-canary.test.ts,
 * which look for the canaries in every store.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { ADMIN_API, API, AUTH_API, type AdminUser, type AuditEntry, type BackupInfo } from '@ephemera/proto';
import { readBackupFile } from '../../services/admin-analytics/src/system/backup/format.ts';
import { http as httpOnce, uniqueName } from '../helpers/clients.ts';
import type { Mailpit } from '../helpers/mailpit.ts';
import { bearer, mailedCode, register, type AccountTarget } from '../accounts/account-clients.ts';

export const ACCOUNT_CANARY_SUPERADMIN = 'root-canary@example.test';

/** An address and a username that occur nowhere unless this run wrote them. */
export function makeAccountCanaries() {
  const hex = randomBytes(6).toString('hex');
  return { email: `cnrymail${hex}@example.test`, username: `cnryname${hex}` };
}
export type AccountCanaries = ReturnType<typeof makeAccountCanaries>;

export interface CanaryProduct {
  url: string;
  mail: Mailpit;
}
export interface LiveCanaryAccount {
  accountId: string;
  token: string;
  adminToken: string;
  roomId: string;
  backup: BackupInfo;
}

const target = (p: CanaryProduct) => ({ url: p.url, mail: p.mail }) as unknown as AccountTarget;

/**
 * A request sent again once when its pooled connection was reset: the distributed test's byte scans block the
 * process the stack's servers run in for seconds, and a keep-alive connection the server closed meanwhile fails the
 * next request sent on it before the server reads it.
 */
async function http<T = any>(...args: Parameters<typeof httpOnce>) {
  try {
    const res = await httpOnce<T>(...args);
    return res.status === 502 ? httpOnce<T>(...args) : res; // the gateway's upstream connection was the reset one
  } catch {
    return httpOnce<T>(...args);
  }
}
const fetchAgain = async (url: string, init: RequestInit) => {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
};

/** Polls until `fn` gives what `ok` accepts (the directory is a projection: distributed, from Kafka a moment later). */
async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  let last: T | undefined;
  await expect.poll(async () => ok((last = await fn())), { timeout: 15_000, interval: 100, message: what }).toBe(true);
  return last!;
}

/**
 * The account lives: registered, signed in by e-mail in upper case, registered again (no second account), owner of a
 * dashboard room, found by the superadmin by e-mail (any case) with its username, suspended and unsuspended (the audit
 * trail shows its e-mail), and a backup taken.
 */
export async function liveCanaryAccount(p: CanaryProduct, c: AccountCanaries): Promise<LiveCanaryAccount> {
  const t = target(p);
  const admin = bearer((await register(t, ACCOUNT_CANARY_SUPERADMIN, 'root')).token);
  const signedUp = await register(t, c.email, c.username);
  const accountId = signedUp.user.id;
  expect(signedUp.user).toMatchObject({ email: c.email, username: c.username });

  // sign-in by e-mail, in another case; registering again, in another case, signs in the same account
  const login = await http(p.url, AUTH_API.login, {
    body: { email: c.email.toUpperCase(), code: await mailedCode(t, c.email) },
  });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  expect(login.body.user.id).toBe(accountId);
  const again = await http(p.url, AUTH_API.register, {
    body: { email: c.email.toUpperCase(), username: 'someone-else', code: await mailedCode(t, c.email) },
  });
  expect(again.body.user).toMatchObject({ id: accountId, email: c.email, username: c.username });
  const token = again.body.token as string;

  const room = await http(p.url, API.create(), {
    body: { name: uniqueName('canaryacct'), username: 'owner' },
    headers: bearer(token),
  });
  expect(room.status, JSON.stringify(room.body)).toBe(201);
  const roomId = room.body.workspaceId as string;

  // the superadmin finds the account by its e-mail, whatever the case, and the room by its owner's e-mail
  const users = async (search: string) =>
    (
      await http<{ users: AdminUser[] }>(p.url, `${ADMIN_API.users}?search=${encodeURIComponent(search)}`, {
        headers: admin,
      })
    ).body.users;
  const found = await until(
    () => users(c.email.toUpperCase()),
    (u) => u.length === 1,
    'the superadmin finds the account by e-mail',
  );
  expect(found[0]).toMatchObject({ email: c.email, username: c.username });
  expect((await users(c.username.slice(0, 12))).map((u) => u.email)).toContain(c.email);
  const rooms = await until(
    async () =>
      (await http(p.url, `${ADMIN_API.rooms}?search=${encodeURIComponent(c.email)}`, { headers: admin })).body
        .rooms as Array<{ id: string; owner: string }>,
    (r) => r.some((x) => x.id === roomId && x.owner === c.email),
    "the room listed under its owner's e-mail",
  );
  expect(rooms.map((r) => r.id)).toEqual([roomId]);

  for (const suspended of [true, false]) {
    const res = await http(p.url, ADMIN_API.suspendUser(c.email), {
      body: { suspended, reason: suspended ? 'canary check' : undefined },
      headers: admin,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const trail = (await http<AuditEntry[]>(p.url, ADMIN_API.audit, { headers: admin })).body;
  expect(
    trail
      .filter((e) => e.action.startsWith('user.') && e.target === c.email)
      .map((e) => e.action)
      .sort(),
  ).toEqual(['user.suspended', 'user.unsuspended']);
  // the suspension ended every session: a new sign-in
  const back = await http(p.url, AUTH_API.login, { body: { email: c.email, code: await mailedCode(t, c.email) } });
  expect(back.status, JSON.stringify(back.body)).toBe(200);

  const backup = await http<{ backup: BackupInfo }>(p.url, ADMIN_API.backupGenerate, { body: {}, headers: admin });
  expect(backup.status, JSON.stringify(backup.body)).toBe(200);
  return {
    accountId,
    token: back.body.token as string,
    adminToken: admin.authorization.slice('Bearer '.length),
    roomId,
    backup: backup.body.backup,
  };
}

/** The account deletes itself; the superadmin no longer finds it, and the audit trail names it by its id only. */
export async function deleteCanaryAccount(
  p: CanaryProduct,
  live: LiveCanaryAccount,
  c: AccountCanaries,
): Promise<AuditEntry[]> {
  const gone = await http(p.url, AUTH_API.deleteAccount, {
    method: 'DELETE',
    body: { confirmation: 'DELETE' },
    headers: bearer(live.token),
  });
  expect(gone.status, JSON.stringify(gone.body)).toBe(200);
  expect(gone.body.deletedRooms).toEqual([live.roomId]);
  const admin = bearer(live.adminToken);
  await until(
    async () =>
      (await http(p.url, `${ADMIN_API.users}?search=${encodeURIComponent(c.email)}`, { headers: admin })).body.users
        .length,
    (n) => n === 0,
    'the deleted account leaves the directory',
  );
  const trail = (await http<AuditEntry[]>(p.url, ADMIN_API.audit, { headers: admin })).body;
  expect(trail.filter((e) => e.action.startsWith('user.') && e.target === live.accountId).length).toBe(2);
  return trail;
}

/**
 * The backup taken while the account lived, as its download gives it, opened with the backup key: its raw bytes and
 * its records as text. The account is in it (its id), its e-mail and username only sealed.
 */
export async function backupText(
  p: CanaryProduct,
  live: LiveCanaryAccount,
  backupKey: Buffer,
): Promise<{ raw: Buffer; records: string }> {
  const res = await fetchAgain(`${p.url}${ADMIN_API.backupDownload(live.backup.filename)}`, {
    headers: bearer(live.adminToken),
  });
  expect(res.status).toBe(200);
  const raw = Buffer.from(await res.arrayBuffer());
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'canary-backup-')), live.backup.filename);
  fs.writeFileSync(file, raw);
  const records: string[] = [];
  try {
    await readBackupFile(file, backupKey, async (record) => {
      records.push(JSON.stringify(record));
    });
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
  const text = records.join('\n');
  expect(text).toContain(live.accountId);
  return { raw, records: text };
}

/** The assertion every check ends with: none of the canaries in `text`. */
export function expectNoAccountCanary(text: string, where: string, c: AccountCanaries): void {
  for (const [name, value] of Object.entries(c)) expect(text.includes(value), `${name} canary in ${where}`).toBe(false);
  // the address's local part alone (a store could keep it apart from the domain)
  expect(text.includes(c.email.split('@')[0]!), `e-mail canary's local part in ${where}`).toBe(false);
}
