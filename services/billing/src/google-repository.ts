/**
 * The SQL of signing in with Google (google.ts runs the flow): the flows started in a browser (billing.oidc_flows:
 * state, nonce, PKCE verifier, where to go after) and the single-use handoffs that carry a finished sign-in to the
 * page (billing.oidc_handoffs, by the hash of their id). Each flow and handoff is taken by one DELETE ... RETURNING,
 * so it is spent once.
 */
import { DomainError } from '@ephemera/proto';
import { inTransaction, type Pool } from '@ephemera/platform';

export interface OidcFlow {
  state: string;
  codeVerifier: string;
  nonce: string;
  redirect: string;
  expiresAt: Date;
}

export async function deleteFlowsExpiredBefore(pool: Pool, before: Date): Promise<void> {
  await pool.query('DELETE FROM billing.oidc_flows WHERE expires_at < $1', [before]);
}

export async function insertFlow(pool: Pool, flow: OidcFlow): Promise<void> {
  await pool.query(
    'INSERT INTO billing.oidc_flows (state, code_verifier, nonce, redirect, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [flow.state, flow.codeVerifier, flow.nonce, flow.redirect, flow.expiresAt],
  );
}

/** Spends the flow named by `state` if it is still live at `now`; null when there is none. */
export async function takeLiveFlow(
  pool: Pool,
  state: string,
  now: Date,
): Promise<Pick<OidcFlow, 'codeVerifier' | 'nonce' | 'redirect'> | null> {
  const { rows } = await pool.query<{ codeVerifier: string; nonce: string; redirect: string }>(
    `DELETE FROM billing.oidc_flows WHERE state = $1 AND expires_at > $2
     RETURNING code_verifier AS "codeVerifier", nonce, redirect`,
    [state, now],
  );
  return rows[0] ?? null;
}

export async function insertHandoff(pool: Pool, idHash: string, accountId: string, expiresAt: Date): Promise<void> {
  await pool.query('INSERT INTO billing.oidc_handoffs (id_hash, account_id, expires_at) VALUES ($1, $2, $3)', [
    idHash,
    accountId,
    expiresAt,
  ]);
}

/**
 * In one transaction: handoffs expired at `now` go, then the one named by `idHash` is spent if still live; answers
 * its account. None: GOOGLE_AUTH_FAILED, and the transaction keeps nothing.
 */
export function takeLiveHandoff(pool: Pool, idHash: string, now: Date): Promise<string> {
  return inTransaction(pool, async (c) => {
    await c.query('DELETE FROM billing.oidc_handoffs WHERE expires_at < $1', [now]);
    const r = await c.query<{ account_id: string }>(
      'DELETE FROM billing.oidc_handoffs WHERE id_hash = $1 AND expires_at > $2 RETURNING account_id',
      [idHash, now],
    );
    if (!r.rows[0]) throw new DomainError('GOOGLE_AUTH_FAILED');
    return r.rows[0].account_id;
  });
}
