-- Up Migration
-- The superadmin's actions on accounts (issue 10), projected from account.suspended / account.unsuspended /
-- account.admin-trial-granted / account.admin-trial-ended (services/billing/src/projection.ts). A suspended account
-- cannot sign in and its sessions name nobody; an admin trial is a tier until trial_ends_at, after which billing's
-- sweep (admin-accounts.ts) returns the account to free.
ALTER TABLE billing.accounts
  ADD COLUMN suspended boolean NOT NULL DEFAULT false,
  ADD COLUMN suspended_reason text,
  ADD COLUMN upgraded_by_admin boolean NOT NULL DEFAULT false,
  ADD COLUMN trial_ends_at timestamptz;
CREATE INDEX accounts_admin_trial ON billing.accounts (trial_ends_at) WHERE upgraded_by_admin;

-- Down Migration
DROP INDEX billing.accounts_admin_trial;
ALTER TABLE billing.accounts DROP COLUMN suspended, DROP COLUMN suspended_reason, DROP COLUMN upgraded_by_admin, DROP COLUMN trial_ends_at;
