-- Up Migration
-- What the superadmin's System and Settings tabs ask of billing (issue 10; services/billing/src/admin-system.ts).
-- Like sessions, these are credential records, not domain facts: they live only here and are not replayed.
--   account_activity  when the account last signed in or used a session (auto-delete of inactive accounts); kept
--                     apart from sessions, which the database cleanup removes once they are over
--   sign_in_failures  one row per refused sign-in code (the System tab's failed sign-ins); no address is kept
CREATE TABLE billing.account_activity (
  account_id text PRIMARY KEY,
  last_active_at timestamptz NOT NULL
);
INSERT INTO billing.account_activity (account_id, last_active_at)
  SELECT account_id, max(created_at) FROM billing.sessions GROUP BY account_id;

CREATE TABLE billing.sign_in_failures (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL
);
CREATE INDEX sign_in_failures_at ON billing.sign_in_failures (at);

-- Down Migration
DROP TABLE billing.sign_in_failures;
DROP TABLE billing.account_activity;
