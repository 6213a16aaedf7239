-- Up Migration
-- The directory's accounts hold their e-mail and username sealed under each account's key (docs/crypto.md,
-- "Accounts"; src/account-fields.ts), and email_hash, the keyed hash billing looks addresses up by, for the
-- superadmin's search by exact e-mail. The audit trail names an account by its id. Rows written before are sealed,
-- and audit targets replaced by the account's id, at start (src/directory/legacy.ts): until then email_hash is null.
ALTER TABLE admin.accounts ADD COLUMN email_hash text;
DROP INDEX admin.accounts_email;
CREATE INDEX accounts_email_hash ON admin.accounts (email_hash);

-- Down Migration
DROP INDEX admin.accounts_email_hash;
ALTER TABLE admin.accounts DROP COLUMN email_hash;
CREATE INDEX accounts_email ON admin.accounts (email);
