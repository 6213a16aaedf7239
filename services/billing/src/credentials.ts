/**
 * Sign-in codes and sessions (docs/product/security.md S7, S8): what proves who the caller is. Only hashes are
 * stored; every check
 * is one conditional UPDATE, so two requests racing with one code cannot both win (single use).
 */
import { createHash, randomInt, randomBytes } from 'node:crypto';
import { DomainError, SESSION_TTL_MS, SIGN_IN_CODE } from '@ephemera/proto';
import { SESSION_TOKEN_PREFIX, inTransaction, type EmailLookup, type Pool } from '@ephemera/platform';

const hash = (value: string) => createHash('sha256').update(value).digest('hex');
/**
 * The code is bound to its address: a code mailed to one address is worth nothing for another. The address is
 * named by its keyed hash (account-fields.ts), never in the clear: the rows say nothing of who asked for a code.
 */
const codeHash = (emailHash: string, code: string) => hash(`sign-in:${emailHash}:${code}`);

export class SignInCodes {
  constructor(
    private readonly pool: Pool,
    private readonly now: () => Date,
    private readonly lookup: EmailLookup,
  ) {}

  /** A new code for the address; earlier unused codes of the address stop working (only the newest mail counts). */
  async issue(address: string): Promise<string> {
    const code = String(randomInt(0, 10 ** SIGN_IN_CODE.digits)).padStart(SIGN_IN_CODE.digits, '0');
    const now = this.now();
    const email = this.lookup.hash(address);
    await inTransaction(this.pool, async (c) => {
      await c.query('UPDATE billing.sign_in_codes SET used_at = $2 WHERE email_hash = $1 AND used_at IS NULL', [
        email,
        now,
      ]);
      await c.query('DELETE FROM billing.sign_in_codes WHERE expires_at < $1', [
        new Date(now.getTime() - SIGN_IN_CODE.ttlMs),
      ]);
      await c.query('INSERT INTO billing.sign_in_codes (email_hash, code_hash, expires_at) VALUES ($1, $2, $3)', [
        email,
        codeHash(email, code),
        new Date(now.getTime() + SIGN_IN_CODE.ttlMs),
      ]);
    });
    return code;
  }

  /**
   * Spends the code: valid only if it is the address's live code, unused, unexpired and not burnt by wrong tries.
   * A wrong code counts a try against the live code. Throws SIGN_IN_CODE_INVALID otherwise.
   */
  async consume(address: string, code: string): Promise<void> {
    const now = this.now();
    const email = this.lookup.hash(address);
    // One statement takes the try and compares the code: the row lock orders concurrent tries, each counts before
    // it is compared, and none is compared once the code's tries are spent (a burst cannot outrun the count).
    const tried = await this.pool.query<{ matched: boolean }>(
      `UPDATE billing.sign_in_codes
       SET attempts = attempts + 1, used_at = CASE WHEN code_hash = $2 THEN $3 ELSE used_at END
       WHERE email_hash = $1 AND used_at IS NULL AND expires_at > $3 AND attempts < $4 RETURNING code_hash = $2 AS matched`,
      [email, codeHash(email, code), now, SIGN_IN_CODE.maxAttempts],
    );
    if (tried.rows[0]?.matched) return;
    await this.pool.query('INSERT INTO billing.sign_in_failures (at) VALUES ($1)', [now]); // the System tab's figure
    throw new DomainError('SIGN_IN_CODE_INVALID');
  }
}

export class Sessions {
  constructor(
    private readonly pool: Pool,
    private readonly now: () => Date,
  ) {}

  /**
   * A new session (a fresh token on every sign-in: rotation). `replacing`: the token the browser held before, if
   * any, is revoked in the same step, so a token from before the sign-in cannot ride along.
   */
  async open(accountId: string, replacing?: string | null): Promise<string> {
    const token = `${SESSION_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = this.now();
    await inTransaction(this.pool, async (c) => {
      if (replacing)
        await c.query('UPDATE billing.sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL', [
          hash(replacing),
          now,
        ]);
      await c.query(
        'INSERT INTO billing.sessions (token_hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
        [hash(token), accountId, now, new Date(now.getTime() + SESSION_TTL_MS)],
      );
      await touchActivity(c, accountId, now);
    });
    return token;
  }

  /**
   * The account of a live session, or null (unknown, expired, revoked). Each use counts as the account's activity
   * (auto-delete of inactive accounts), recorded at most once per ACTIVITY_RESOLUTION_MS so a busy session does
   * not write on every request.
   */
  async accountOf(token: string): Promise<string | null> {
    const now = this.now();
    const { rows } = await this.pool.query<{ account_id: string; last_active_at: Date | null }>(
      `SELECT s.account_id, a.last_active_at FROM billing.sessions s LEFT JOIN billing.account_activity a ON a.account_id = s.account_id
       WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2`,
      [hash(token), now],
    );
    const row = rows[0];
    if (!row) return null;
    if (!row.last_active_at || row.last_active_at.getTime() < now.getTime() - ACTIVITY_RESOLUTION_MS)
      await touchActivity(this.pool, row.account_id, now);
    return row.account_id;
  }

  async revoke(token: string): Promise<void> {
    await this.pool.query('UPDATE billing.sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL', [
      hash(token),
      this.now(),
    ]);
  }

  /** Sign-out everywhere: every session of the account ends now. */
  async revokeAll(accountId: string): Promise<number> {
    const r = await this.pool.query(
      'UPDATE billing.sessions SET revoked_at = $2 WHERE account_id = $1 AND revoked_at IS NULL',
      [accountId, this.now()],
    );
    return r.rowCount ?? 0;
  }

  /** For the data export: when the account's sessions were opened (never the tokens). */
  async list(accountId: string): Promise<{ createdAt: string; expiresAt: string; revokedAt: string | null }[]> {
    const { rows } = await this.pool.query(
      'SELECT created_at, expires_at, revoked_at FROM billing.sessions WHERE account_id = $1 ORDER BY created_at',
      [accountId],
    );
    return rows.map((r) => ({
      createdAt: r.created_at.toISOString(),
      expiresAt: r.expires_at.toISOString(),
      revokedAt: r.revoked_at?.toISOString() ?? null,
    }));
  }
}

/** how finely session use is recorded as activity (an hour: auto-delete counts days) */
export const ACTIVITY_RESOLUTION_MS = 3_600_000;

/** the account was active at `at` (a sign-in or a session's use); never moves back */
async function touchActivity(
  db: { query(text: string, values: unknown[]): Promise<unknown> },
  accountId: string,
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO billing.account_activity (account_id, last_active_at) VALUES ($1, $2)
     ON CONFLICT (account_id) DO UPDATE SET last_active_at = greatest(billing.account_activity.last_active_at, EXCLUDED.last_active_at)`,
    [accountId, at],
  );
}
