-- Up Migration
-- A deleted message keeps its row (its seq stays taken, a retried send still dedupes) but not its sealed body:
-- NULL, so nothing of it is left to open even with the room's key (services/messaging/src/sealed-messages.ts).
ALTER TABLE messaging.messages ALTER COLUMN sealed_body DROP NOT NULL;
UPDATE messaging.messages SET sealed_body = NULL WHERE deleted;

-- Down Migration
-- The destroyed bodies cannot come back: deleted rows get an empty JSON body.
UPDATE messaging.messages SET sealed_body = '{}' WHERE sealed_body IS NULL;
ALTER TABLE messaging.messages ALTER COLUMN sealed_body SET NOT NULL;
