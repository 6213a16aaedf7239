-- Up Migration
-- Refunds (services/billing/src/payments/refunds.ts). How much of each charge has been refunded, as billing has
-- recorded it: the projection of account.payment-refunded (a replay rebuilds it), read before recording the next
-- refund of the same charge, so that only an increase of the provider's refunded total becomes an event.
CREATE TABLE billing.charge_refunds (
  charge_id text PRIMARY KEY,                 -- the provider's charge (Stripe ch_...)
  account_id text NOT NULL REFERENCES billing.accounts (id) ON DELETE CASCADE,
  refunded_cents bigint NOT NULL              -- the charge's refunded total after the latest recorded refund
);
CREATE INDEX charge_refunds_account ON billing.charge_refunds (account_id);

-- Down Migration
DROP TABLE billing.charge_refunds;
