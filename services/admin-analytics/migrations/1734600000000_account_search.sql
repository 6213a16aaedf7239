-- Up Migration
-- The superadmin's search over every account (docs/administration.md, "Searching sealed accounts"): the e-mail and
-- the username are sealed, so each row also holds the keyed hashes of the three-character runs of each
-- (src/account-fields.ts, searchGrams); a search matches a row whose array contains all of the search's hashes, through
-- a GIN index. Rows written before are given theirs at start (src/directory/legacy.ts): until then they are null.
ALTER TABLE admin.accounts ADD COLUMN email_grams text[], ADD COLUMN username_grams text[];
CREATE INDEX accounts_email_grams ON admin.accounts USING gin (email_grams);
CREATE INDEX accounts_username_grams ON admin.accounts USING gin (username_grams);

-- Down Migration
DROP INDEX admin.accounts_username_grams;
DROP INDEX admin.accounts_email_grams;
ALTER TABLE admin.accounts DROP COLUMN username_grams, DROP COLUMN email_grams;
