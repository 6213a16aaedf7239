-- Up Migration
-- Receipts and renewal reminders (issue 9; services/billing/src/payments/receipts.ts, reminders.ts).
-- mailed_notices is a projection of account.receipt-mailed and account.renewal-reminder-mailed (projection.ts ->
-- payments/notices.ts), rebuilt by a replay: what was mailed survives a restart and a restore, so nothing is mailed
-- twice. The rows go with the account (ON DELETE CASCADE: account.deleted removes the account row).
CREATE TABLE billing.mailed_notices (
  account_id text NOT NULL REFERENCES billing.accounts (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('receipt', 'renewal-reminder')),
  notice_key text NOT NULL,                 -- receipt: its id; reminder: '{stage}:{period end}' (one per stage and period)
  mailed_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, kind, notice_key)
);

-- Receipts waiting for the SMTP server: an outbox, not a domain fact (like provider_events it lives only here and is
-- not replayed, so a replay never mails an old receipt again). A sender leases a row (leased_until) while it mails;
-- a failed send sets next_attempt_at and the reminder sweep retries it; rows older than three days are given up.
CREATE TABLE billing.receipt_outbox (
  receipt_id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES billing.accounts (id) ON DELETE CASCADE,
  receipt jsonb NOT NULL,                   -- what the mail says (kind, plan or room, amount, dates); never card data
  created_at timestamptz NOT NULL,
  next_attempt_at timestamptz NOT NULL,
  leased_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text
);
CREATE INDEX receipt_outbox_due ON billing.receipt_outbox (next_attempt_at);

-- Down Migration
DROP TABLE billing.receipt_outbox;
DROP TABLE billing.mailed_notices;
