-- Up Migration
-- The System, Feedback and Settings tabs (issue 10, src/system): projections of the admin topic, rebuilt by a replay.
--   config        admin.config-changed and admin.maintenance-changed (one row; absent: the defaults)
--   audit         admin.action-recorded: every superadmin action, who, on what, why
--   cleanup_runs  the audit's cleanup.run entries with their counts (the Settings tab's cleanup history)
CREATE TABLE admin.config (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  maintenance_enabled boolean NOT NULL DEFAULT false,
  maintenance_message text,
  maintenance_seq bigint NOT NULL DEFAULT -1,      -- the admin event it came from (processes keep the newest)
  maintenance_changed_at timestamptz,
  auto_delete_enabled boolean NOT NULL DEFAULT false,
  auto_delete_days integer NOT NULL DEFAULT 90,   -- days after the 7-day grace period
  config_changed_at timestamptz
);

CREATE TABLE admin.audit (
  event_id uuid PRIMARY KEY,
  seq bigint NOT NULL,                            -- the admin aggregate's sequence: order within one instant
  action text NOT NULL,
  target text,
  reason text,
  admin text NOT NULL,                            -- the superadmin's e-mail, or "system" for the scheduled sweep
  details jsonb NOT NULL DEFAULT '{}',
  at timestamptz NOT NULL
);
CREATE INDEX audit_newest ON admin.audit (at DESC, seq DESC);

CREATE TABLE admin.cleanup_runs (
  event_id uuid PRIMARY KEY,
  at timestamptz NOT NULL,
  trigger text NOT NULL,                          -- manual | scheduled
  eligible integer NOT NULL,
  deleted integer NOT NULL,
  failed integer NOT NULL
);
CREATE INDEX cleanup_runs_newest ON admin.cleanup_runs (at DESC);

-- Down Migration
DROP TABLE admin.cleanup_runs;
DROP TABLE admin.audit;
DROP TABLE admin.config;
