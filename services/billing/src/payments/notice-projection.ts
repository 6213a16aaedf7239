/**
 * What was mailed to an account (receipts, renewal reminders): the projection of account.receipt-mailed and
 * account.renewal-reminder-mailed into billing.mailed_notices (called from projection.ts, so a replay rebuilds it);
 * the senders' read before mailing is wasMailed (repository.ts). Recording happens after the SMTP server accepted
 * the mail: a crash in between may mail one notice twice, never lose the record of one that was sent and recorded.
 */
import { reminderKey, type AnyEventEnvelope } from '@ephemera/proto';
import type { PoolClient } from '@ephemera/platform';

export async function projectNotice(client: PoolClient, event: AnyEventEnvelope): Promise<void> {
  if (event.type !== 'account.receipt-mailed' && event.type !== 'account.renewal-reminder-mailed') return;
  const p = event.payload;
  const [kind, key] =
    event.type === 'account.receipt-mailed'
      ? ['receipt', event.payload.receiptId]
      : ['renewal-reminder', reminderKey(event.payload.stage, event.payload.periodEnd)];
  // The account row may be gone (deleted, and this is a replay of an older record): then nothing is kept of it.
  await client.query(
    `INSERT INTO billing.mailed_notices (account_id, kind, notice_key, mailed_at)
     SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM billing.accounts WHERE id = $1) ON CONFLICT DO NOTHING`,
    [p.accountId, kind, key, p.mailedAt],
  );
  await client.query('UPDATE billing.accounts SET last_seq = $2 WHERE id = $1', [p.accountId, event.sequence]);
}
