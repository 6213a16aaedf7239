-- Up Migration
-- Bearer-token authentication for messaging's own HTTP routes (link previews, later uploads): the member's token
-- hash, projected from member.joined (the token itself never enters the log).
ALTER TABLE messaging.members ADD COLUMN token_hash text;
CREATE INDEX members_token_hash ON messaging.members (token_hash);

-- Down Migration
DROP INDEX messaging.members_token_hash;
ALTER TABLE messaging.members DROP COLUMN token_hash;
