/**
 * The SQL of signing in (credentials.ts decides; docs/product/security.md S7, S8): sign-in codes, their failed
 * tries, sessions and each account's last activity, stored as hashes only. A function that takes `db` runs on
 * whatever it is given: the caller's transaction's client, or the pool.
 */
import type { Pool, PoolClient } from '@ephemera/platform';

type Db = Pool | PoolClient;

/** Every unused code of the address stops working at `at` (a newer code replaces them). */
export async function retireOpenCodes(db: Db, emailHash: string, at: Date): Promise<void> {
  await db.query('UPDATE billing.sign_in_codes SET used_at = $2 WHERE email_hash = $1 AND used_at IS NULL', [
    emailHash,
    at,
  ]);
}

export async function deleteCodesExpiredBefore(db: Db, before: Date): Promise<void> {
  await db.query('DELETE FROM billing.sign_in_codes WHERE expires_at < $1', [before]);
}

export async function insertCode(db: Db, emailHash: string, codeHash: string, expiresAt: Date): Promise<void> {
  await db.query('INSERT INTO billing.sign_in_codes (email_hash, code_hash, expires_at) VALUES ($1, $2, $3)', [
    emailHash,
    codeHash,
    expiresAt,
  ]);
}

/**
 * One try against the address's live code (unused, unexpired, tries not spent), in one statement: the try is
 * counted and the code compared under the row's lock, and a match spends the code. True only for a match.
 */
export async function tryLiveCode(
  db: Db,
  emailHash: string,
  codeHash: string,
  now: Date,
  maxAttempts: number,
): Promise<boolean> {
  const tried = await db.query<{ matched: boolean }>(
    `UPDATE billing.sign_in_codes
     SET attempts = attempts + 1, used_at = CASE WHEN code_hash = $2 THEN $3 ELSE used_at END
     WHERE email_hash = $1 AND used_at IS NULL AND expires_at > $3 AND attempts < $4 RETURNING code_hash = $2 AS matched`,
    [emailHash, codeHash, now, maxAttempts],
  );
  return tried.rows[0]?.matched === true;
}

/** a failed sign-in, for the System tab's figure */
export async function recordSignInFailure(db: Db, at: Date): Promise<void> {
  await db.query('INSERT INTO billing.sign_in_failures (at) VALUES ($1)', [at]);
}

export async function countSignInFailuresSince(db: Db, since: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM billing.sign_in_failures WHERE at >= $1', [
    since,
  ]);
  return Number(rows[0]?.n ?? 0);
}

export async function insertSession(
  db: Db,
  session: { tokenHash: string; accountId: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO billing.sessions (token_hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
    [session.tokenHash, session.accountId, session.createdAt, session.expiresAt],
  );
}

/** The live session's account (not revoked, not expired at `now`) and when the account was last active. */
export async function liveSession(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<{ accountId: string; lastActiveAt: Date | null } | null> {
  const { rows } = await db.query<{ account_id: string; last_active_at: Date | null }>(
    `SELECT s.account_id, a.last_active_at FROM billing.sessions s LEFT JOIN billing.account_activity a ON a.account_id = s.account_id
     WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2`,
    [tokenHash, now],
  );
  const row = rows[0];
  return row ? { accountId: row.account_id, lastActiveAt: row.last_active_at } : null;
}

export async function revokeSession(db: Db, tokenHash: string, at: Date): Promise<void> {
  await db.query('UPDATE billing.sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL', [
    tokenHash,
    at,
  ]);
}

/** Ends every live session of the account at `at`; answers how many were live. */
export async function revokeSessionsOf(db: Db, accountId: string, at: Date): Promise<number> {
  const r = await db.query('UPDATE billing.sessions SET revoked_at = $2 WHERE account_id = $1 AND revoked_at IS NULL', [
    accountId,
    at,
  ]);
  return r.rowCount ?? 0;
}

export async function sessionsOf(
  db: Db,
  accountId: string,
): Promise<{ createdAt: Date; expiresAt: Date; revokedAt: Date | null }[]> {
  const { rows } = await db.query<{ createdAt: Date; expiresAt: Date; revokedAt: Date | null }>(
    `SELECT created_at AS "createdAt", expires_at AS "expiresAt", revoked_at AS "revokedAt" FROM billing.sessions
     WHERE account_id = $1 ORDER BY created_at`,
    [accountId],
  );
  return rows;
}

/** the account was active at `at` (a sign-in or a session's use); never moves back */
export async function touchActivity(db: Db, accountId: string, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO billing.account_activity (account_id, last_active_at) VALUES ($1, $2)
     ON CONFLICT (account_id) DO UPDATE SET last_active_at = greatest(billing.account_activity.last_active_at, EXCLUDED.last_active_at)`,
    [accountId, at],
  );
}

/**
 * The Database Cleanup quick action: in one transaction, codes, sessions (a revoked one goes when its life would
 * have ended), Google flows and handoffs whose time is over at `now`, handled provider events received before
 * `providerEventsBefore`, failed sign-ins before `failuresBefore`, and the activity of accounts that no longer exist.
 * Answers how many rows went.
 */
export async function deleteExpiredCredentials(
  client: PoolClient,
  cutoffs: { now: Date; providerEventsBefore: Date; failuresBefore: Date },
): Promise<number> {
  const { now } = cutoffs;
  const deletions: Array<[string, unknown[]]> = [
    ['DELETE FROM billing.sign_in_codes WHERE expires_at < $1', [now]],
    ['DELETE FROM billing.sessions WHERE expires_at < $1', [now]],
    ['DELETE FROM billing.oidc_flows WHERE expires_at < $1', [now]],
    ['DELETE FROM billing.oidc_handoffs WHERE expires_at < $1', [now]],
    [
      'DELETE FROM billing.provider_events WHERE handled_at IS NOT NULL AND received_at < $1',
      [cutoffs.providerEventsBefore],
    ],
    ['DELETE FROM billing.sign_in_failures WHERE at < $1', [cutoffs.failuresBefore]],
    [
      'DELETE FROM billing.account_activity act WHERE NOT EXISTS (SELECT 1 FROM billing.accounts a WHERE a.id = act.account_id)',
      [],
    ],
  ];
  let removed = 0;
  for (const [sql, values] of deletions) removed += (await client.query(sql, values)).rowCount ?? 0;
  return removed;
}
