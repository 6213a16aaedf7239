-- Up Migration
-- Bytes reserved by uploads in progress (services/messaging/src/files/quota.ts): counted against the room's storage
-- quota with what messaging.files holds, taken under a lock per room before any byte is stored, so uploads on any
-- replica cannot together pass the quota. Not in backups (an upload in progress is not restored).
CREATE TABLE messaging.storage_reservations (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  bytes bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX storage_reservations_workspace ON messaging.storage_reservations (workspace_id);

-- Down Migration
DROP TABLE messaging.storage_reservations;
