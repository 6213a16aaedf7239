-- Up Migration
-- Tombstones of deleted accounts (docs/administration.md, "Backups that restore the service"): an account deleted
-- after a backup was taken stays deleted when that backup is restored in place. Only the id, a random value that
-- names no one; the table is not in the backup, so a restore keeps the live tombstones.
CREATE TABLE billing.deleted_accounts (
  id text PRIMARY KEY,
  deleted_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE billing.deleted_accounts;
