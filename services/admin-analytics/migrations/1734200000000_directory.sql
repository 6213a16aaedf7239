-- Up Migration
-- The users and rooms directory (src/directory/projection.ts) fills admin.accounts and admin.rooms
-- (1734000000000_admin.sql). The Rooms tab searches by owner e-mail and the admin actions wait for a room's owner's
-- rows: rooms are looked up by their owner account.
CREATE INDEX rooms_owner ON admin.rooms (owner_account_id);

-- Down Migration
DROP INDEX admin.rooms_owner;
