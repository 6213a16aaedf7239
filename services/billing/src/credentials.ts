/**
 * Sign-in codes and sessions (docs/product/security.md S7, S8): what proves who the caller is. Only hashes are
 * stored; every check
 * is one conditional UPDATE, so two requests racing with one code cannot both win (single use).
 */
import { createHash, randomInt, randomBytes } from 'node:crypto';
import { DomainError, SESSION_TTL_MS, SIGN_IN_CODE } from '@ephemera/proto';
import { SESSION_TOKEN_PREFIX, inTransaction, type EmailLookup, type Pool } from '@ephemera/platform';
import {
  deleteCodesExpiredBefore,
  insertCode,
  insertSession,
  liveSession,
  recordSignInFailure,
  retireOpenCodes,
  revokeSession,
  revokeSessionsOf,
  sessionsOf,
  touchActivity,
  tryLiveCode,
} from './credentials-repository.ts';

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
      await retireOpenCodes(c, email, now);
      await deleteCodesExpiredBefore(c, new Date(now.getTime() - SIGN_IN_CODE.ttlMs));
      await insertCode(c, email, codeHash(email, code), new Date(now.getTime() + SIGN_IN_CODE.ttlMs));
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
    if (await tryLiveCode(this.pool, email, codeHash(email, code), now, SIGN_IN_CODE.maxAttempts)) return;
    await recordSignInFailure(this.pool, now); // the System tab's figure
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
      if (replacing) await revokeSession(c, hash(replacing), now);
      await insertSession(c, {
        tokenHash: hash(token),
        accountId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
      });
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
    const session = await liveSession(this.pool, hash(token), now);
    if (!session) return null;
    if (!session.lastActiveAt || session.lastActiveAt.getTime() < now.getTime() - ACTIVITY_RESOLUTION_MS)
      await touchActivity(this.pool, session.accountId, now);
    return session.accountId;
  }

  async revoke(token: string): Promise<void> {
    await revokeSession(this.pool, hash(token), this.now());
  }

  /** Sign-out everywhere: every session of the account ends now. */
  revokeAll(accountId: string): Promise<number> {
    return revokeSessionsOf(this.pool, accountId, this.now());
  }

  /** For the data export: when the account's sessions were opened (never the tokens). */
  async list(accountId: string): Promise<{ createdAt: string; expiresAt: string; revokedAt: string | null }[]> {
    return (await sessionsOf(this.pool, accountId)).map((r) => ({
      createdAt: r.createdAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
      revokedAt: r.revokedAt?.toISOString() ?? null,
    }));
  }
}

/** how finely session use is recorded as activity (an hour: auto-delete counts days) */
export const ACTIVITY_RESOLUTION_MS = 3_600_000;
