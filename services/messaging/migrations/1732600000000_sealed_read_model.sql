-- Up Migration
-- Crypto-shredding (issue 7, docs/crypto.md): messaging's read model holds nothing of a room in the clear.
-- A message row keeps its Message sealed under the room's own key (AES-256-GCM, AAD = the message id: text
-- `e1.<base64url>`), so content, reply quotes, link previews, author names and profile pictures are unreadable once
-- the key is destroyed, whatever copy of the row survives (WAL, backups).
ALTER TABLE messaging.messages RENAME COLUMN body TO sealed_body;
ALTER TABLE messaging.messages ALTER COLUMN sealed_body TYPE text USING sealed_body::text;

-- Messaging never shows a username (a message carries its author's name, sealed with it): none is kept.
ALTER TABLE messaging.members DROP COLUMN username;

-- Rooms created before room keys have no key: their events can no longer be opened and the rooms are gone. Their
-- rows were written in the clear, so they go now; the search entries were keyed by the master key, not a room key.
DELETE FROM messaging.messages;
DELETE FROM messaging_search.entries;

-- Down Migration
-- The sealed rows cannot be turned back into text without the keys: they go with the change.
DELETE FROM messaging.messages;
DELETE FROM messaging_search.entries;
ALTER TABLE messaging.members ADD COLUMN username text NOT NULL DEFAULT '';
ALTER TABLE messaging.messages ALTER COLUMN sealed_body TYPE json USING sealed_body::json;
ALTER TABLE messaging.messages RENAME COLUMN sealed_body TO body;
