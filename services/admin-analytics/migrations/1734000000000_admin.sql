-- Up Migration
-- The admin-analytics service (issue 10): read models projected from every topic of the event log (analytics,
-- the users and rooms directory, the audit trail and its configuration), rebuilt by a replay. Each part has its own
-- migration; this one is what they share.
CREATE SCHEMA IF NOT EXISTS admin;

CREATE TABLE admin.processed_events (
  event_id uuid PRIMARY KEY,
  processed_at timestamptz NOT NULL DEFAULT now()
);

-- the sequence of the admin aggregate's events (topic admin); gaps are possible (a failed append), order is kept
CREATE SEQUENCE admin.event_seq;

-- The directory (projected by src/directory from the billing and room topics), read by every part:
-- accounts as the Users tab lists them, rooms as the Rooms tab lists them. Deleted accounts and rooms are removed.
CREATE TABLE admin.accounts (
  id text PRIMARY KEY,
  email text NOT NULL,                     -- lower-cased
  username text,
  tier text NOT NULL DEFAULT 'free',       -- free | pro | business
  payment_status text NOT NULL DEFAULT 'active', -- active | past_due | cancelled
  created_at timestamptz NOT NULL,
  upgraded_by_admin boolean NOT NULL DEFAULT false,
  trial_ends_at timestamptz,
  suspended boolean NOT NULL DEFAULT false,
  suspended_reason text,
  last_active_at timestamptz NOT NULL      -- sign-up, then each recorded activity of the account
);
CREATE INDEX accounts_created ON admin.accounts (created_at);
CREATE INDEX accounts_email ON admin.accounts (email);

CREATE TABLE admin.rooms (
  id text PRIMARY KEY,
  name text NOT NULL,
  owner_account_id text,                   -- the account that claimed it (null: a guest's room)
  tier text NOT NULL,
  user_count integer NOT NULL DEFAULT 0,   -- members now (joined minus left and kicked)
  created_at timestamptz NOT NULL,
  expires_at timestamptz                   -- null: never
);
CREATE INDEX rooms_created ON admin.rooms (created_at);

-- Down Migration
DROP SCHEMA admin CASCADE;
