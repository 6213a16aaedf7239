-- Up Migration
-- Room administration (issue 7): a custom member cap (pro and business), the theme an admin broadcast, and the
-- revoked token of a kicked member (join-workspace with it answers KICKED rather than a generic refusal).
-- The tier, name, password and expiry already have columns; their changes are UPDATEs in the projection.

ALTER TABLE room.workspaces ADD COLUMN custom_max_users integer;   -- null = the tier's default (maxUsersFor)
ALTER TABLE room.workspaces ADD COLUMN theme jsonb;                -- RoomTheme (proto socket.ts); null = none broadcast

-- sha256 of a kicked member's token, copied from the member row when member.kicked is applied (never the token).
ALTER TABLE room.departed_members ADD COLUMN token_hash text;
CREATE INDEX departed_members_token ON room.departed_members (workspace_id, token_hash) WHERE token_hash IS NOT NULL;

-- Down Migration
DROP INDEX room.departed_members_token;
ALTER TABLE room.departed_members DROP COLUMN token_hash;
ALTER TABLE room.workspaces DROP COLUMN theme;
ALTER TABLE room.workspaces DROP COLUMN custom_max_users;
