-- Up Migration
-- The analytics read models (issue 10; services/admin-analytics/ANALYTICS.md): pre-aggregated by UTC day and a
-- dimension (plan, source, kind), so no figure of the dashboard scans raw events. All of them are projections of
-- the event log (src/analytics/projector.ts): a replay from the start into empty tables rebuilds them.

-- One counter per day, metric and dimension: rooms.created (by tier), messages.sent (by message type),
-- files.uploaded (by kind), pages.viewed (by route group), accounts.registered (by tier).
CREATE TABLE admin.daily_counts (
  metric text NOT NULL,
  day date NOT NULL,
  dimension text NOT NULL DEFAULT '',
  value bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (metric, day, dimension)
);

-- One row per payment (and per failed payment): what every revenue figure sums, per day. A revenue reset deletes
-- the rows paid before its time (and later-arriving ones before it are never inserted: see revenue_resets).
CREATE TABLE admin.payments (
  event_id uuid PRIMARY KEY,
  paid_at timestamptz NOT NULL,
  day date NOT NULL,
  kind text NOT NULL,                      -- subscription | extension | failed
  plan text,                               -- subscription, failed: pro | business
  extension_days integer,                  -- extension: 3 | 7 | 14 | 30
  amount_cents integer NOT NULL,           -- failed: 0
  account_id text NOT NULL
);
CREATE INDEX payments_day ON admin.payments (day);
CREATE INDEX payments_paid_at ON admin.payments (paid_at);

-- Each account's subscription as its last subscription event left it: decides whether an activation is a new
-- paid period (a payment) or only a change of the same period (billing's isNewPayment rule).
CREATE TABLE admin.subscriptions (
  account_id text PRIMARY KEY,
  subscription_id text,
  tier text NOT NULL,
  payment_status text NOT NULL,            -- active | past_due | cancelled
  period_end timestamptz
);

-- Every "Reset Revenue": payments before the latest `before` count nowhere, whatever order a replay delivers the
-- billing and admin topics in.
CREATE TABLE admin.revenue_resets (
  event_id uuid PRIMARY KEY,
  before timestamptz NOT NULL,
  deleted_records integer NOT NULL
);

-- Unique visitors: one row per day and visitor (an HMAC of address + user agent under a salt that changes daily).
CREATE TABLE admin.daily_visitors (
  day date NOT NULL,
  visitor text NOT NULL,
  views integer NOT NULL DEFAULT 1,
  PRIMARY KEY (day, visitor)
);

-- Active users: one row per day and actor (a room member's user id) that did something in a room that day, with
-- its sessions (a gap of more than 30 minutes starts a new one) and the time between actions inside them.
CREATE TABLE admin.daily_active (
  day date NOT NULL,
  actor text NOT NULL,
  last_at timestamptz NOT NULL,
  sessions integer NOT NULL DEFAULT 1,
  active_ms bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (day, actor)
);

-- Down Migration
DROP TABLE admin.daily_active;
DROP TABLE admin.daily_visitors;
DROP TABLE admin.revenue_resets;
DROP TABLE admin.subscriptions;
DROP TABLE admin.payments;
DROP TABLE admin.daily_counts;
