-- Up Migration
-- The room experience (issue 6): profile pictures, departed members (role 'left', later 'kicked'), DMs hidden by one
-- member, one DM per pair. Rooms are temporary, so nothing is recomputed: new rows carry the new keys
-- (username_key is usernameKey(): NFKC, case-insensitive, from services/room/src/projection.ts).

ALTER TABLE room.members ADD COLUMN profile_picture text;

-- Who was a member and is no more: roleOf() answers 'left' (or 'kicked') for these user ids.
CREATE TABLE room.departed_members (
  workspace_id text NOT NULL REFERENCES room.workspaces (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  username text NOT NULL,
  reason text NOT NULL CHECK (reason IN ('left', 'kicked')),
  departed_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);

-- A DM one member removed from their own view (delete-dm); the partner keeps it. hidden_at lets the reopen policy
-- tell a message sent after the hide (reopens) from an older one replayed later (does not).
CREATE TABLE room.hidden_dms (
  channel_id text NOT NULL REFERENCES room.channels (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  hidden_at timestamptz NOT NULL,
  PRIMARY KEY (channel_id, user_id)
);
CREATE INDEX hidden_dms_user ON room.hidden_dms (user_id);

-- One DM per pair of members: the two user ids, sorted, joined by a space.
ALTER TABLE room.channels ADD COLUMN dm_key text;
CREATE UNIQUE INDEX channels_dm_pair ON room.channels (workspace_id, dm_key) WHERE dm_key IS NOT NULL;
-- Topic channel names are unique per room case-insensitively (checked by the use case, looked up here).
CREATE INDEX channels_topic_name ON room.channels (workspace_id, name_key) WHERE type = 'topic';

-- Down Migration
DROP INDEX room.channels_topic_name;
DROP INDEX room.channels_dm_pair;
ALTER TABLE room.channels DROP COLUMN dm_key;
DROP TABLE room.hidden_dms;
DROP TABLE room.departed_members;
ALTER TABLE room.members DROP COLUMN profile_picture;
