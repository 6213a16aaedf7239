-- Up Migration
-- The superadmin's moderation viewer (issue 10; services/messaging/src/admin-messaging.ts) shows each message's
-- channel name and type. Projected from channel.created / channel.renamed; the name is sealed under the room's key
-- like the messages (AAD: 'channel-name:' + the channel id), so it goes unreadable with the room.
ALTER TABLE messaging.channels
  ADD COLUMN channel_type text NOT NULL DEFAULT 'topic',  -- topic | dm (private topics: is_private)
  ADD COLUMN sealed_name text;                            -- null: projected before this migration

-- Down Migration
ALTER TABLE messaging.channels DROP COLUMN channel_type, DROP COLUMN sealed_name;
