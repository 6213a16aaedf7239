-- Up Migration
-- Unread mention counts (docs/product/messages.md M27): each message row keeps the ids of the members its text
-- mentions (from its message.sent / message.edited event; rows from before mention nobody), found by a GIN index
-- when a member's channel summaries count the unread messages that mention them.
ALTER TABLE messaging.messages ADD COLUMN mentioned_user_ids text[] NOT NULL DEFAULT '{}';
CREATE INDEX messages_mentioned_user_ids ON messaging.messages USING gin (mentioned_user_ids);

-- The members' usernames, sealed under the room key (AAD = member and field, docs/crypto.md), which a send opens to
-- tell whom its text mentions. Members projected before have none until their next profile change or a replay.
ALTER TABLE messaging.members ADD COLUMN sealed_username text;

-- Down Migration
ALTER TABLE messaging.members DROP COLUMN sealed_username;
DROP INDEX messaging.messages_mentioned_user_ids;
ALTER TABLE messaging.messages DROP COLUMN mentioned_user_ids;
