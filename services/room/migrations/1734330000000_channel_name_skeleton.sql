-- Up Migration
-- Topic channel names are one name when their confusable skeletons (UTS #39) are equal (services/room/src/name-keys.ts).
-- name_key_purpose records the key purpose each name_key was computed under; rows written before the skeleton keep
-- 'channel-name-v1' (a keyed hash of the lower case) until the room service hashes them again at start
-- (services/room/src/name-rehash.ts): the hash is keyed by the room's key, so SQL cannot compute it. The default
-- stays, so a row written by a replica that does not know the column yet is marked as what it is.
ALTER TABLE room.channels ADD COLUMN name_key_purpose text NOT NULL DEFAULT 'channel-name-v1';

-- Down Migration
ALTER TABLE room.channels DROP COLUMN name_key_purpose;
