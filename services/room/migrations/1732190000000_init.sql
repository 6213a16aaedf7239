-- Up Migration
-- The room service's read model: a projection of the room-events topic (services/room/src/projection.ts).
CREATE SCHEMA IF NOT EXISTS room;

CREATE TABLE room.processed_events (
  event_id uuid PRIMARY KEY,
  processed_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE room.workspaces (
  id text PRIMARY KEY,
  name text NOT NULL,
  name_key text NOT NULL UNIQUE,          -- lower-cased: names are unique case-insensitively
  tier text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz,                 -- null = permanent (business)
  password_hash text,                     -- scrypt, never the password
  created_by text NOT NULL,
  last_seq integer NOT NULL DEFAULT 0     -- sequence of the last room event of this workspace
);
CREATE INDEX workspaces_expires_at ON room.workspaces (expires_at) WHERE expires_at IS NOT NULL;

CREATE TABLE room.members (
  workspace_id text NOT NULL REFERENCES room.workspaces (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  username text NOT NULL,
  username_key text NOT NULL,
  is_admin boolean NOT NULL,
  token_hash text NOT NULL,               -- sha256 of the bearer token
  joined_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, user_id),
  UNIQUE (workspace_id, username_key)
);
CREATE INDEX members_token ON room.members (workspace_id, token_hash);

CREATE TABLE room.channels (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES room.workspaces (id) ON DELETE CASCADE,
  name text NOT NULL,
  name_key text NOT NULL,
  type text NOT NULL,
  is_private boolean NOT NULL,
  member_ids text[] NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX channels_workspace ON room.channels (workspace_id);

-- Down Migration
DROP SCHEMA room CASCADE;
