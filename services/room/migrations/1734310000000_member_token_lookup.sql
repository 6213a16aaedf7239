-- Up Migration
-- A bearer token without a room in its path (POST /api/link-preview/fetch) is looked up by its hash alone
-- (member-tokens.ts): the room service is the one place tokens are checked.
CREATE INDEX members_token_hash ON room.members (token_hash);

-- Down Migration
DROP INDEX room.members_token_hash;
