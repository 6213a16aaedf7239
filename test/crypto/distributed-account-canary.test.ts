/**
 * Accounts' crypto-shredding in distributed mode (docs/crypto.md, "Accounts"): billing and admin-analytics as their
 * own servers on Kafka, PostgreSQL and Redis. A canary e-mail and username are absent from the raw bytes of every
 * store (the PostgreSQL data directory with pg_wal after a CHECKPOINT, the Kafka log segments, the Redis dump after
 * SAVE, uncompressed), from Redis' keys and values, from every row of every schema, from the backup's decrypted
 * records and from the audit trail, while the account lives and after it is deleted; after deletion billing's key
 * route answers 404 for the account.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sharedInfra } from '../helpers/infra.ts';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { DEV_MASTER_KEY, serviceCredential, signedRequests } from '@ephemera/platform';
import { backupKeyFrom } from '@ephemera/admin-analytics';
import { ACCOUNT_KEY_ROUTE } from '@ephemera/billing/src/account-keys-http.ts';
import { startDistributedStack } from '../distributed/stack.ts';
import { freePort } from '../../deploy/local/infra.ts';
import { startMailpit, type Mailpit } from '../helpers/mailpit.ts';
import { findInFiles, scanned } from './canary.ts';
import {
  ACCOUNT_CANARY_SUPERADMIN,
  backupText,
  deleteCanaryAccount,
  expectNoAccountCanary,
  liveCanaryAccount,
  makeAccountCanaries,
  type AccountCanaries,
} from './account-canary.ts';

let stack: Awaited<ReturnType<typeof startDistributedStack>>;
let mail: Mailpit;
const infra = () => sharedInfra('infraDataDir');
const stores = () => ({
  postgres: path.join(infra(), 'pg'),
  kafka: path.join(infra(), 'kafka', 'logs'),
  redis: path.join(infra(), 'redis'),
});

/** PostgreSQL's dirty pages and WAL on disk, every row of the stack's database as text; Redis' uncompressed dump,
 *  and its keys with their values as text. */
async function flushAndRead(): Promise<{ rows: string; redis: string }> {
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  let rows = '';
  try {
    await client.query('CHECKPOINT');
    const { rows: tables } = await client.query(
      "SELECT table_schema AS s, table_name AS t FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')",
    );
    for (const { s, t } of tables)
      rows += (await client.query(`SELECT x::text AS r FROM "${s}"."${t}" x`)).rows.map((r) => r.r).join('\n');
  } finally {
    await client.end();
  }
  const redis = new Redis(sharedInfra('redisUrl'));
  let text = '';
  try {
    await redis.config('SET', 'rdbcompression', 'no'); // LZF would hide a plaintext string from a byte search
    await redis.save();
    for (const key of await redis.keys('*')) {
      const type = await redis.type(key);
      const value =
        type === 'string' ? await redis.get(key) : type === 'hash' ? JSON.stringify(await redis.hgetall(key)) : type;
      text += `${key} ${value}\n`;
    }
  } finally {
    redis.disconnect();
  }
  return { rows, redis: text };
}

/** After the byte scans blocked this process: the servers in it close the connections that timed out meanwhile. */
async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 1_000));
}

function expectNoCanaryAnywhere(read: { rows: string; redis: string }, c: AccountCanaries, when: string): void {
  expectNoAccountCanary(read.rows, `the database's rows ${when}`, c);
  expectNoAccountCanary(read.redis, `Redis' keys and values ${when}`, c);
  for (const [store, dir] of Object.entries(stores())) {
    expect(findInFiles([dir], c), `${store} (${dir}) ${when}`).toEqual({});
    expect(findInFiles([dir], { localPart: c.email.split('@')[0]! }), `${store} (${dir}) ${when}`).toEqual({});
  }
}

beforeAll(async () => {
  mail = await startMailpit();
  stack = await startDistributedStack({
    accounts: { port: await freePort(), smtpUrl: mail.smtpUrl, superadminEmail: ACCOUNT_CANARY_SUPERADMIN },
    admin: true,
  });
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  await mail?.stop();
});

describe('account canaries: distributed', () => {
  it("no store holds an account's e-mail or username, while it lives or after; its backup holds them sealed, and its key goes with it", async () => {
    const c = makeAccountCanaries();
    const p = { url: stack.urlA, mail };
    const live = await liveCanaryAccount(p, c);
    const keys = signedRequests(stack.internal.billing!, serviceCredential('canary', stack.serviceSecret));
    // the scans block this process (the stack's servers live in it): a pooled connection the server closed meanwhile is retried once
    const keyStatus = async () => {
      const route = `${ACCOUNT_KEY_ROUTE}/${live.accountId}`;
      try {
        return (await keys('GET', route)).status;
      } catch {
        return (await keys('GET', route)).status;
      }
    };
    expect(await keyStatus()).toBe(200);

    const backup = await backupText(p, live, backupKeyFrom(DEV_MASTER_KEY)); // the stack's admin-analytics runs on the development key
    expectNoAccountCanary(backup.records, "the backup's records", c);
    expectNoAccountCanary(backup.raw.toString('latin1'), 'the backup file', c);

    const whileLiving = await flushAndRead();
    expect(whileLiving.rows).toContain(live.accountId); // the reads see the account
    for (const [store, dir] of Object.entries(stores())) {
      if (store !== 'redis')
        expect(
          findInFiles([dir], { id: live.accountId }).id?.length ?? 0,
          `${store} scan finds the account id`,
        ).toBeGreaterThan(0);
    }
    expectNoCanaryAnywhere(whileLiving, c, 'while the account lives');
    await settle();

    const trail = await deleteCanaryAccount(p, live, c);
    expectNoAccountCanary(JSON.stringify(trail), 'the audit trail', c);
    expect(await keyStatus()).toBe(404); // destroyed: the sealed values in the backup and the stores never open again
    expectNoCanaryAnywhere(await flushAndRead(), c, 'after deletion');
    for (const [store, dir] of Object.entries(stores()))
      console.log(`[canary] distributed accounts ${store}: absent (${scanned([dir])})`);
    // about 10 s here on a quiet machine; a fresh-clone run under load (average 10-20) passed 60 s in its settles
  }, 180_000);
});
