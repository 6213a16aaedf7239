/**
 * Crypto-shredding in embedded mode (`npm start`): canaries a room says are absent from the raw bytes of the whole
 * DATA_DIR (PostgreSQL data directory with pg_wal, the key directory) and from the server's log output while the
 * room lives; after the room is deleted its key file is gone and a full replay of the log into a fresh database
 * rebuilds no trace of it. A room deleted while its members type and reconnect ends cleanly.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { TOPICS } from '@ephemera/proto';
import {
  EmbeddedEventLog,
  createLogger,
  createPool,
  fileRoomKeys,
  masterKeyFile,
  sealedEventLog,
  type Pool,
} from '@ephemera/platform';
import { startRoomModule } from '@ephemera/room';
import { startMessagingModule } from '@ephemera/messaging';
import { startEmbedded, type EmbeddedApp } from '../../services/embedded/app.ts';
import { databaseWithLogOf } from '../helpers/db.ts';
import {
  deleteRoom,
  deleteWhileBusy,
  expectNoCanary,
  findInFiles,
  makeCanaries,
  saySecrets,
  scanned,
} from './canary.ts';
import { expectDeletedUnreadable, messageCanaries, openRoomRecords, sayAndDelete } from './message-canary.ts';

let dataDir = '';
let app: EmbeddedApp;
const logLines: string[] = [];

/** The embedded PostgreSQL's address, from its postmaster.pid (line 4: the port). */
function embeddedPgUrl(): string {
  const port = fs
    .readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')
    .split('\n')[3]!
    .trim();
  return `postgres://postgres:ephemera@127.0.0.1:${port}/ephemera`;
}

/** Every dirty page and the WAL on disk, so the scan reads what PostgreSQL holds. */
async function checkpoint(): Promise<void> {
  const client = new pg.Client({ connectionString: embeddedPgUrl() });
  await client.connect();
  try {
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-canary-'));
  // The server's whole log output at debug level, kept to be searched.
  const logger = createLogger('canary', 'debug', {
    write: (line: string) => {
      logLines.push(line);
    },
  });
  app = await startEmbedded({ port: 0, host: '127.0.0.1', dataDir, logger, sweepIntervalMs: 200 });
});
afterAll(async () => {
  await app?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('crypto-shredding canaries: embedded', () => {
  it('while the room lives no store holds what it says; after deletion its key is gone and a replay rebuilds nothing of it', async () => {
    const c = makeCanaries();
    const room = await saySecrets(app.url, app.url, c);
    await checkpoint();

    // The scan sees what PostgreSQL wrote: the room's name (a public identifier) is in the data directory.
    expect(findInFiles([dataDir], { name: room.name }).name?.length ?? 0).toBeGreaterThan(0);
    expectNoCanary(findInFiles([dataDir], c), `DATA_DIR ${dataDir} while the room lives`);
    console.log(`[canary] embedded: ${Object.keys(c).length} canaries absent from DATA_DIR (${scanned([dataDir])})`);
    expect(fs.existsSync(path.join(dataDir, 'keys', `${room.workspaceId}.key`))).toBe(true);

    await deleteRoom(app.url, room);
    room.close();
    expect(fs.existsSync(path.join(dataDir, 'keys', `${room.workspaceId}.key`))).toBe(false);
    await checkpoint();
    expectNoCanary(findInFiles([dataDir], c), `DATA_DIR ${dataDir} after deletion`);

    // A full replay of the log, nothing else, into a fresh database, with the same key directory and master key.
    const live = createPool(embeddedPgUrl());
    const replayUrl = await databaseWithLogOf(live);
    await live.end();
    const replay = await bootReplay(replayUrl);
    try {
      const count = async (sql: string) => Number((await replay.pool.query(sql, [room.workspaceId])).rows[0].n);
      expect(await count('SELECT count(*) AS n FROM room.workspaces WHERE id = $1')).toBe(0);
      expect(await count('SELECT count(*) AS n FROM room.members WHERE workspace_id = $1')).toBe(0);
      expect(await count('SELECT count(*) AS n FROM room.channels WHERE workspace_id = $1')).toBe(0);
      expect(await count('SELECT count(*) AS n FROM messaging.messages WHERE workspace_id = $1')).toBe(0);
      const everything = await allRows(replay.pool);
      for (const [name, text] of Object.entries(c))
        expect(everything.includes(text), `${name} canary in the replayed database`).toBe(false);
    } finally {
      await replay.stop();
    }

    const logs = logLines.join('');
    for (const [name, text] of Object.entries(c))
      expect(logs.includes(text), `${name} canary in the server's log output`).toBe(false);
  });

  it('a deleted message opens nowhere: not in the read model, not in the log under the room key and the keys left', async () => {
    const c = messageCanaries();
    const { workspaceId } = await sayAndDelete(app.url, app.url, c);
    await checkpoint();
    expect(findInFiles([dataDir], c)).toEqual({}); // nothing in the clear, as for everything else
    const pool = createPool(embeddedPgUrl());
    try {
      const { rows: records } = await pool.query<{ event: { id: string; type: string; payload: unknown } }>(
        'SELECT event FROM event_log WHERE key = $1 ORDER BY position',
        [workspaceId],
      );
      const { rows: keys } = await pool.query<{ id: string; w: string }>(
        'SELECT message_id AS id, wrapped_key AS w FROM messaging.message_keys WHERE workspace_id = $1',
        [workspaceId],
      );
      const roomKey = (await fileRoomKeys(path.join(dataDir, 'keys'), masterKeyFile(dataDir)).keyring.key(
        workspaceId,
      ))!;
      const text = openRoomRecords(
        records.map((r) => r.event),
        roomKey,
        Object.fromEntries(keys.map((k) => [k.id, k.w])),
      );
      expectDeletedUnreadable(text, c, 'the event log');
      expectDeletedUnreadable(text + (await allRows(pool)), c, 'the log and every read-model row');
    } finally {
      await pool.end();
    }
  });

  it('a room deleted while a member types and another reconnects ends cleanly for everyone', async () => {
    await deleteWhileBusy(app.url, app.url);
  });

  it('the logger redacts content, passwords, tokens, usernames and PostgreSQL error details wherever they sit', () => {
    const secret = makeCanaries().message;
    const out: string[] = [];
    const logger = createLogger('redaction', 'info', {
      write: (line: string) => {
        out.push(line);
      },
    });
    logger.info(
      { content: secret, input: { newContent: secret, password: secret }, actor: { user: { username: secret } } },
      'a command',
    );
    logger.error(
      { err: Object.assign(new Error('duplicate key'), { detail: `Key (username)=(${secret}) already exists.` }) },
      'failed',
    );
    logger.warn({ body: { userToken: secret, passwordHash: secret } }, 'refused');
    expect(out).toHaveLength(3);
    expect(out.join('')).not.toContain(secret);
    expect(out.join('')).toContain('[redacted]');
  });
});

/** The room and messaging modules on the replay database: they rebuild their read models from offset zero. */
async function bootReplay(databaseUrl: string) {
  const pool = createPool(databaseUrl);
  const keys = fileRoomKeys(path.join(dataDir, 'keys'), masterKeyFile(dataDir));
  const log = sealedEventLog(new EmbeddedEventLog(pool), keys.keyring);
  await log.init(Object.values(TOPICS));
  const logger = createLogger('replay', 'silent');
  const room = await startRoomModule({
    databaseUrl,
    pool,
    log,
    logger,
    sweepIntervalMs: 3_600_000,
    roomKeys: keys.store,
    keyring: keys.keyring,
  });
  const messaging = await startMessagingModule({ databaseUrl, pool, log, logger, keyring: keys.keyring });
  return {
    pool,
    async stop() {
      await room.stop();
      await messaging.stop();
      await log.close();
      await pool.end();
    },
  };
}

/** Every row of every table of the read models, as text. */
async function allRows(pool: Pool): Promise<string> {
  const { rows: tables } = await pool.query(
    "SELECT table_schema AS s, table_name AS t FROM information_schema.tables WHERE table_schema IN ('room', 'messaging', 'messaging_search') AND table_type = 'BASE TABLE'",
  );
  let text = '';
  for (const { s, t } of tables) {
    const { rows } = await pool.query(`SELECT x::text AS r FROM "${s}"."${t}" x`);
    text += rows.map((r) => r.r).join('\n');
  }
  return text;
}
