-- Up Migration
-- Crypto-shredding (issue 7, docs/crypto.md): who was in a room is sealed under the room's own key.
-- room.members.username, room.members.profile_picture and room.departed_members.username hold sealed text
-- (`e1.<base64url>`, AES-256-GCM), and usernames are unique per room by a keyed hash of their usernameKey
-- (HMAC under the room key's 'username-v1' subkey) instead of the normalized name itself. The unique constraint
-- on (workspace_id, username_key) follows the renamed column.
ALTER TABLE room.members RENAME COLUMN username_key TO username_hash;

-- Rooms created before room keys have no key: their events can no longer be opened and the rooms are gone. Their
-- members were stored in the clear, so they go now (the cascade takes members, channels, departures, hidden DMs).
DELETE FROM room.workspaces;

-- Down Migration
-- The sealed rows cannot be turned back into names without the keys: they go with the change.
DELETE FROM room.workspaces;
ALTER TABLE room.members RENAME COLUMN username_hash TO username_key;
