/**
 * A sign-in code's tries under a burst (docs/security.md, "Rate limits"): each try is counted in the statement that
 * compares it, so however many arrive at once, the code is compared at most SIGN_IN_CODE.maxAttempts times, and the
 * right code sent after them is refused. Real PostgreSQL, the billing schema from its migrations.
 */
import { describe, it, expect, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { DomainError, SIGN_IN_CODE, TOPICS, type AccountRoomsApi } from '@ephemera/proto';
import {
  EmbeddedEventLog,
  createLogger,
  createPool,
  fileRoomKeys,
  ownEmailLookup,
  sealedEventLog,
} from '@ephemera/platform';
import { startBillingModule } from '../src/index.ts';
import { SignInCodes } from '../src/credentials.ts';
import { createTestDatabase } from '../../../test/helpers/db.ts';

const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'billing-codes-keys-'));
afterAll(() => fs.rmSync(keyDir, { recursive: true, force: true }));

describe('sign-in codes', () => {
  it('of 30 concurrent tries for one code, the right one sent 21st is refused: at most 5 tries are compared', async () => {
    const databaseUrl = await createTestDatabase();
    const pool = createPool(databaseUrl);
    const keys = fileRoomKeys(keyDir, randomBytes(32));
    const log = sealedEventLog(new EmbeddedEventLog(pool), keys.keyring);
    await log.init(Object.values(TOPICS));
    const billing = await startBillingModule({
      databaseUrl,
      pool,
      log,
      logger: createLogger('test', 'silent'),
      accountKeys: keys.store,
      rooms: {} as AccountRoomsApi,
    });
    try {
      const lookup = await ownEmailLookup(keys.store);
      const codes = new SignInCodes(pool, () => new Date(), lookup);
      const email = 'burst@example.test';
      const code = await codes.issue(email);
      const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
      const tries = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) => codes.consume(email, i === 20 ? code : wrong(i))),
      );
      expect(tries[20]!.status).toBe('rejected');
      for (const t of tries)
        expect(
          t.status === 'rejected' && t.reason instanceof DomainError && t.reason.code === 'SIGN_IN_CODE_INVALID',
        ).toBe(true);
      const { rows } = await pool.query('SELECT attempts FROM billing.sign_in_codes WHERE email_hash = $1', [
        lookup.hash(email),
      ]);
      expect(rows[0].attempts).toBe(SIGN_IN_CODE.maxAttempts);
      // A fresh code works: the burst burnt only the code it guessed at.
      const next = await codes.issue(email);
      await codes.consume(email, next);
    } finally {
      await billing.stop();
      await log.close();
      await pool.end();
    }
  });
});
