-- Up Migration
-- Accounts' e-mails and usernames sealed under each account's key (docs/crypto.md, "Accounts"). billing.accounts.email
-- and .username hold sealed values (services/platform/src/crypto/account-fields.ts); email_hash, a keyed hash of the
-- normalized address, is what sign-in and registration look up and keep unique. Rows written before are sealed at
-- start (services/billing/src/sealed-accounts.ts): until then their email_hash is null.
ALTER TABLE billing.accounts ADD COLUMN email_hash text;
ALTER TABLE billing.accounts DROP CONSTRAINT accounts_email_key;
CREATE UNIQUE INDEX accounts_email_hash ON billing.accounts (email_hash);

-- Sign-in codes name their address by the same keyed hash. Codes issued before cannot be matched to it: they are
-- dropped (they live ten minutes; the user asks for a new one).
DELETE FROM billing.sign_in_codes;
ALTER TABLE billing.sign_in_codes RENAME COLUMN email TO email_hash;

-- Down Migration
ALTER TABLE billing.sign_in_codes RENAME COLUMN email_hash TO email;
DROP INDEX billing.accounts_email_hash;
ALTER TABLE billing.accounts DROP COLUMN email_hash;
