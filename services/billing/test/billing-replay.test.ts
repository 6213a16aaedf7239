/**
 * Billing's read model is a projection of its events: replaying the log into an empty database gives the same
 * accounts, and a deleted account does not come back. Account events are sealed under the account's key: no e-mail
 * is readable in the log, and after deletion the key is gone (crypto-shredding, docs/crypto.md).
 * The room side is a stand-in here (an account with no rooms): this test is about billing's own log and table.
 */
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { TOPICS } from '@ephemera/proto';
import { billingHarness } from './billing-harness.ts';
import { createTestDatabase, databaseWithLogOf } from '../../../test/helpers/db.ts';

const { boot, keyDir } = billingHarness('replay');

/** the accounts as billing reads them (e-mail and username opened under each account's key) */
const accounts = async (
  pool: import('pg').Pool,
  billing: { service: { accounts: { byId(id: string): Promise<unknown> } } },
) => {
  const { rows } = await pool.query<{ id: string }>('SELECT id FROM billing.accounts ORDER BY id');
  return Promise.all(rows.map((r) => billing.service.accounts.byId(r.id)));
};

describe('billing replay', () => {
  it('rebuilds the same accounts from the log; a deleted account stays gone and its events stay unreadable', async () => {
    const live = await boot(await createTestDatabase());
    const svc = live.billing.service;
    const signUp = async (email: string, username: string) => {
      const code = await svc.codes.issue(email);
      return svc.register({ email, username, code }, null);
    };
    const kept = await signUp('kept@example.test', 'Kept');
    const gone = await signUp('gone@example.test', 'Gone');
    const keptRow = (await svc.accounts.byId(kept.user.id))!;
    await svc.updateUsername(keptRow, { username: 'Kept Renamed' });
    await svc.setAutoRenewal((await svc.accounts.byId(kept.user.id))!, { autoRenewal: true });
    await svc.signInWithGoogle({
      sub: 'g-123',
      email: 'kept@example.test',
      emailVerified: true,
      name: 'K',
      picture: null,
    });
    await svc.deleteAccount((await svc.accounts.byId(gone.user.id))!, { confirmation: 'DELETE' });

    const before = (await accounts(live.pool, live.billing)) as Array<Record<string, unknown>>;
    expect(before.map((r) => r.email)).toEqual(['kept@example.test']);
    expect(before[0]).toMatchObject({ username: 'Kept Renamed', autoRenewal: true, googleId: 'g-123' });
    const raw = (
      await live.pool.query(`SELECT event::text AS e FROM event_log WHERE topic = $1`, [TOPICS.billing])
    ).rows
      .map((r) => r.e)
      .join('\n');
    expect(raw).not.toContain('example.test'); // every payload sealed; the tombstone carries no address
    expect(raw).toContain('account.deleted');
    expect(fs.existsSync(path.join(keyDir, `${kept.user.id}.key`))).toBe(true);
    expect(fs.existsSync(path.join(keyDir, `${gone.user.id}.key`))).toBe(false); // destroyed before the tombstone

    const rebuilt = await boot(await databaseWithLogOf(live.pool));
    try {
      expect(await accounts(rebuilt.pool, rebuilt.billing)).toEqual(before);
    } finally {
      await rebuilt.stop();
      await live.stop();
    }
  });
});
