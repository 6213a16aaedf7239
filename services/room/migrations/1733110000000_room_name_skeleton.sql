-- Up Migration
-- Room names are one name when their confusable skeletons (UTS #39) are equal (services/room/src/name-keys.ts): a room
-- cannot be made or renamed to a name that renders like a live room's. name_key (lower case) still resolves a room's
-- address; name_skeleton decides look-alikes. Rooms made before get theirs at start (services/room/src/name-rehash.ts):
-- the skeleton is Unicode's confusables data, which SQL does not have.
ALTER TABLE room.workspaces ADD COLUMN name_skeleton text;
CREATE INDEX workspaces_name_skeleton ON room.workspaces (name_skeleton);

-- Down Migration
DROP INDEX room.workspaces_name_skeleton;
ALTER TABLE room.workspaces DROP COLUMN name_skeleton;
