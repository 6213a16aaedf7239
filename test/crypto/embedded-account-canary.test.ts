/**
 * Accounts' crypto-shredding in embedded mode (`npm start`; docs/crypto.md, "Accounts"): a canary e-mail and username
 * are absent from the raw bytes of the whole DATA_DIR (PostgreSQL data directory with pg_wal after a CHECKPOINT, the
 * key directory, the backups) and from every row of every schema (read models, the event log, the audit trail) while
 * the account lives and after it is deleted; the backup taken while it lived holds the account only sealed; after
 * deletion its key file is gone, so nothing of that backup or of any store can be opened again.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createLogger, masterKeyFile } from '@ephemera/platform';
import { backupKeyFrom } from '@ephemera/admin-analytics';
import { startEmbedded, type EmbeddedApp } from '../../services/embedded/app.ts';
import { startMailpit, type Mailpit } from '../helpers/mailpit.ts';
import { findInFiles, scanned } from './canary.ts';
import {
  ACCOUNT_CANARY_SUPERADMIN,
  backupText,
  deleteCanaryAccount,
  expectNoAccountCanary,
  liveCanaryAccount,
  makeAccountCanaries,
} from './account-canary.ts';

let dataDir = '';
let app: EmbeddedApp;
let mail: Mailpit;
const logLines: string[] = [];

const embeddedPgUrl = () => {
  const port = fs
    .readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')
    .split('\n')[3]!
    .trim();
  return `postgres://postgres:ephemera@127.0.0.1:${port}/ephemera`;
};

/** A CHECKPOINT (every dirty page and the WAL on disk, for the byte scan), then every row of every schema as text. */
async function checkpointAndDump(): Promise<string> {
  const client = new pg.Client({ connectionString: embeddedPgUrl() });
  await client.connect();
  try {
    await client.query('CHECKPOINT');
    const { rows: tables } = await client.query(
      "SELECT table_schema AS s, table_name AS t FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')",
    );
    let text = '';
    for (const { s, t } of tables)
      text += (await client.query(`SELECT x::text AS r FROM "${s}"."${t}" x`)).rows.map((r) => r.r).join('\n');
    return text;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-account-canary-'));
  mail = await startMailpit();
  const logger = createLogger('account-canary', 'debug', {
    write: (line: string) => {
      logLines.push(line);
    },
  });
  app = await startEmbedded({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    logger,
    smtpUrl: mail.smtpUrl,
    superadminEmail: ACCOUNT_CANARY_SUPERADMIN,
    google: null,
  });
});
afterAll(async () => {
  await app?.stop();
  await mail?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('account canaries: embedded', () => {
  it("no store holds an account's e-mail or username, while it lives or after; its backup holds them sealed, and its key goes with it", async () => {
    const c = makeAccountCanaries();
    const p = { url: app.url, mail };
    const live = await liveCanaryAccount(p, c);
    const keyFile = path.join(dataDir, 'keys', `${live.accountId}.key`);
    expect(fs.existsSync(keyFile)).toBe(true);

    const whileLiving = await checkpointAndDump();
    expect(whileLiving).toContain(live.accountId); // the dump sees the account
    expectNoAccountCanary(whileLiving, 'the database while the account lives', c);
    expect(findInFiles([dataDir], { accountId: live.accountId }).accountId?.length ?? 0).toBeGreaterThan(0); // the scan sees it too
    expect(findInFiles([dataDir], c), `DATA_DIR while the account lives (${scanned([dataDir])})`).toEqual({});
    const backupKey = backupKeyFrom(masterKeyFile(dataDir));
    const backup = await backupText(p, live, backupKey);
    expectNoAccountCanary(backup.records, "the backup's records", c);
    expectNoAccountCanary(backup.raw.toString('latin1'), 'the backup file', c);

    const trail = await deleteCanaryAccount(p, live, c);
    expectNoAccountCanary(JSON.stringify(trail), 'the audit trail', c);
    expect(fs.existsSync(keyFile)).toBe(false); // destroyed: the sealed values in the backup and the stores never open again
    const afterDeletion = await checkpointAndDump();
    expectNoAccountCanary(afterDeletion, 'the database after deletion', c);
    expect(findInFiles([dataDir], c), 'DATA_DIR after deletion').toEqual({});
    console.log(
      `[canary] embedded accounts: e-mail and username absent from every schema and DATA_DIR (${scanned([dataDir])})`,
    );
    expectNoAccountCanary(logLines.join(''), "the server's log output", c);
  });
});
