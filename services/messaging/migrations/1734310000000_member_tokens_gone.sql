-- Up Migration
-- Messaging no longer keeps members' token hashes: its bearer routes ask the room service, the one authority for
-- room tokens (a copy missed rotations such as a claim's new owner token).
DROP INDEX IF EXISTS messaging.members_token_hash;
ALTER TABLE messaging.members DROP COLUMN IF EXISTS token_hash;

-- Down Migration
ALTER TABLE messaging.members ADD COLUMN token_hash text;
CREATE INDEX members_token_hash ON messaging.members (token_hash);
