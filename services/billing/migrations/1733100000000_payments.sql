-- Up Migration
-- Payments (issue 9 part 2). The account's subscription fields are projected from the account.subscription-* events
-- (services/billing/src/projection.ts). provider_events and extension_orders are idempotency records of the
-- provider's deliveries, not domain facts: they live only here and are not replayed.
ALTER TABLE billing.accounts
  ADD COLUMN customer_id text,                        -- the provider's customer (Stripe cus_...)
  ADD COLUMN subscription_id text,                    -- the provider's subscription (Stripe sub_...)
  ADD COLUMN cancel_at_period_end boolean NOT NULL DEFAULT false;
CREATE INDEX accounts_subscription ON billing.accounts (subscription_id);
CREATE INDEX accounts_customer ON billing.accounts (customer_id);

-- Each provider event id is handled once: five concurrent deliveries of one event insert one row; the others are
-- answered "duplicate". A delivery whose handling failed removes its row, so the provider's retry handles it.
CREATE TABLE billing.provider_events (
  event_id text PRIMARY KEY,
  type text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  handled_at timestamptz,
  outcome text
);

-- One extension per paid checkout session, whether the webhook or the success page gets there first.
CREATE TABLE billing.extension_orders (
  checkout_session_id text PRIMARY KEY,
  account_id text NOT NULL,
  room_id text NOT NULL,
  days integer NOT NULL,
  applied_at timestamptz,
  room_name text,
  new_expiry timestamptz
);

-- Down Migration
DROP TABLE billing.extension_orders;
DROP TABLE billing.provider_events;
ALTER TABLE billing.accounts DROP COLUMN customer_id, DROP COLUMN subscription_id, DROP COLUMN cancel_at_period_end;
