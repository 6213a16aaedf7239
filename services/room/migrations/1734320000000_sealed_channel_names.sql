-- Up Migration
-- Channel names at rest (docs/crypto.md): `name` holds the name sealed under the room's key and `name_key` a keyed
-- hash of its lower case (uniqueness among a room's topic channels), once `name_sealed`; rows written before are
-- sealed at start (services/room/src/name-rehash.ts, sealChannelNames), as the key is not known to SQL.
ALTER TABLE room.channels ADD COLUMN name_sealed boolean NOT NULL DEFAULT false;

-- Down Migration
ALTER TABLE room.channels DROP COLUMN name_sealed;
