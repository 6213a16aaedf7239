-- Up Migration
-- Totals of admin.daily_active kept beside it by the same statement (src/analytics/projector.ts, activity), so the
-- report reads a few rows instead of grouping a month of daily_active by actor (its slowest query at 1,000,000
-- events: ~75 ms of the page load's ~110).
--  - actor_last_active: each member's last active day; weekly and monthly active users are a range of its index.
--  - daily_activity: per day, the members active, their sessions and active time (the daily series, the average
--    session).
-- Both are projections like the rest: filled here from daily_active for an install that has it, rebuilt by a replay.
CREATE TABLE admin.actor_last_active (
  actor text PRIMARY KEY,
  last_day date NOT NULL
);
CREATE INDEX actor_last_active_day ON admin.actor_last_active (last_day);
INSERT INTO admin.actor_last_active (actor, last_day) SELECT actor, max(day) FROM admin.daily_active GROUP BY actor;

CREATE TABLE admin.daily_activity (
  day date PRIMARY KEY,
  actors integer NOT NULL DEFAULT 0,
  sessions bigint NOT NULL DEFAULT 0,
  active_ms bigint NOT NULL DEFAULT 0
);
INSERT INTO admin.daily_activity (day, actors, sessions, active_ms)
  SELECT day, count(*), sum(sessions), sum(active_ms) FROM admin.daily_active GROUP BY day;

-- Down Migration
DROP TABLE admin.daily_activity;
DROP TABLE admin.actor_last_active;
