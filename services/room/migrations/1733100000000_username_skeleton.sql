-- Up Migration
-- Usernames are one name when their confusable skeletons (UTS #39) are equal (services/room/src/name-keys.ts).
-- Each member's username_hash records the key purpose it was computed under; the rows written before the skeleton
-- keep 'username-v1' until the room service hashes them again at start (services/room/src/name-rehash.ts):
-- the hash is keyed by the room's key, so SQL cannot compute it.
ALTER TABLE room.members ADD COLUMN username_hash_purpose text NOT NULL DEFAULT 'username-v1';
ALTER TABLE room.members ALTER COLUMN username_hash_purpose DROP DEFAULT;

-- Down Migration
ALTER TABLE room.members DROP COLUMN username_hash_purpose;
