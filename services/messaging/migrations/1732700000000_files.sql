-- Up Migration
-- Files and voice messages (issue 8, docs/architecture.md Files): what messaging knows of each stored file,
-- projected from file.uploaded / file.removed. The bytes live in the storage adapter (local disk or S3), encrypted
-- under the file's own key; that key, the name, type and caption are in sealed_meta, sealed under the room's key
-- (AAD = the file id), so nothing here identifies a file's content once the room key is gone.
CREATE TABLE messaging.files (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  channel_id text,                     -- null: a profile picture (readable by every member of the room)
  uploader_id text NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('message', 'voice', 'avatar')),
  kind text NOT NULL CHECK (kind IN ('image', 'video', 'file', 'voice')),
  size bigint NOT NULL,
  storage_key text NOT NULL,
  thumbnail_key text,
  thumbnail_size integer,
  sealed_meta text NOT NULL,
  uploaded_at timestamptz NOT NULL,
  expires_at timestamptz,              -- the tier's retention; null: kept as long as the room
  message_id text                      -- the message that carries it, once sent
);
CREATE INDEX files_workspace ON messaging.files (workspace_id);
CREATE INDEX files_expires ON messaging.files (expires_at) WHERE expires_at IS NOT NULL;

-- The room's tier, for the upload size limit and the retention (ENTITLEMENTS in proto/src/tiers.ts).
ALTER TABLE messaging.workspaces ADD COLUMN tier text NOT NULL DEFAULT 'free';

-- Down Migration
ALTER TABLE messaging.workspaces DROP COLUMN tier;
DROP TABLE messaging.files;
