-- Up Migration
-- Accounts (issue 9): the account that claimed the room (workspace.claimed), or null for a guest's room.
ALTER TABLE room.workspaces ADD COLUMN owner_account_id text;
CREATE INDEX workspaces_owner_account ON room.workspaces (owner_account_id) WHERE owner_account_id IS NOT NULL;

-- Down Migration
DROP INDEX room.workspaces_owner_account;
ALTER TABLE room.workspaces DROP COLUMN owner_account_id;
