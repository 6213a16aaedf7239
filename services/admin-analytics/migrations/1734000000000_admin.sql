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

-- Down Migration
DROP SCHEMA admin CASCADE;
