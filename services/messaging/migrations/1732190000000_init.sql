-- Up Migration
-- The messaging service's read model: messages (projection of message events) and what it needs to know of
-- rooms to authorize a send (projection of room events).
CREATE SCHEMA IF NOT EXISTS messaging;

CREATE TABLE messaging.processed_events (
  event_id uuid PRIMARY KEY,
  processed_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE messaging.workspaces (
  id text PRIMARY KEY,
  expires_at timestamptz
);

-- Rooms that expired. The two topics are consumed independently, so on a replay a message may arrive after its
-- room's expiry: the tombstone keeps it out.
CREATE TABLE messaging.expired_workspaces (
  id text PRIMARY KEY
);

CREATE TABLE messaging.members (
  workspace_id text NOT NULL,
  user_id text NOT NULL,
  username text NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);

CREATE TABLE messaging.channels (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  is_private boolean NOT NULL,
  member_ids text[] NOT NULL
);
CREATE INDEX channels_workspace ON messaging.channels (workspace_id);

CREATE TABLE messaging.messages (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  seq integer NOT NULL,
  channel_id text NOT NULL,
  client_message_id text NOT NULL,
  author_id text NOT NULL,
  body json NOT NULL,                       -- the Message as sent (json keeps \u0000 that jsonb refuses)
  created_at timestamptz NOT NULL,
  UNIQUE (workspace_id, seq),
  UNIQUE (workspace_id, author_id, client_message_id)
);
CREATE INDEX messages_channel_seq ON messaging.messages (channel_id, seq DESC);

-- Down Migration
DROP SCHEMA messaging CASCADE;
