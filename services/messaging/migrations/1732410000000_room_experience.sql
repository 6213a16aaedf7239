-- Up Migration
-- The room experience (issue 6): roles for the authorization table, edits/deletes/reactions on messages, read
-- positions, and the room events messaging must follow (deleted channels, departed members, DMs).

-- roleOf(member, createdBy, departed) needs the room's creator and each member's admin flag.
ALTER TABLE messaging.workspaces ADD COLUMN created_by text;
ALTER TABLE messaging.members ADD COLUMN is_admin boolean NOT NULL DEFAULT false;

-- Members who left (member.left): their role is 'left' and they may neither post nor read. The member row itself
-- is deleted, so their token stops working on messaging's own HTTP routes too.
CREATE TABLE messaging.departed_members (
  workspace_id text NOT NULL,
  user_id text NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);

-- Channels that were deleted. The room and messaging topics are consumed independently, so on a replay a message
-- (or read mark) of a deleted channel may arrive after its channel.deleted: the tombstone keeps it out.
CREATE TABLE messaging.deleted_channels (
  id text PRIMARY KEY,
  workspace_id text NOT NULL
);
CREATE INDEX deleted_channels_workspace ON messaging.deleted_channels (workspace_id);

-- A message is an aggregate of its own once sent: version = the sequence of its last edit/delete/reaction event.
-- deleted: a tombstone (its seq stays taken, its content is wiped, it is left out of every read).
ALTER TABLE messaging.messages ADD COLUMN version integer NOT NULL DEFAULT 0;
ALTER TABLE messaging.messages ADD COLUMN deleted boolean NOT NULL DEFAULT false;

-- Read positions, per (member, channel), only moving forward.
CREATE TABLE messaging.read_positions (
  workspace_id text NOT NULL,
  channel_id text NOT NULL,
  user_id text NOT NULL,
  seq integer NOT NULL,
  PRIMARY KEY (channel_id, user_id)
);
CREATE INDEX read_positions_workspace_user ON messaging.read_positions (workspace_id, user_id);

-- The version of each member's read-position aggregate (`{workspaceId}:{userId}:read`): kept apart from the
-- positions so a deleted channel never makes a version number come round again.
CREATE TABLE messaging.read_versions (
  workspace_id text NOT NULL,
  user_id text NOT NULL,
  version integer NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);

-- Down Migration
DROP TABLE messaging.read_versions;
DROP TABLE messaging.read_positions;
ALTER TABLE messaging.messages DROP COLUMN deleted;
ALTER TABLE messaging.messages DROP COLUMN version;
DROP TABLE messaging.deleted_channels;
DROP TABLE messaging.departed_members;
ALTER TABLE messaging.members DROP COLUMN is_admin;
ALTER TABLE messaging.workspaces DROP COLUMN created_by;
