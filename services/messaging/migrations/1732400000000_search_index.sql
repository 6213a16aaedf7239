-- Up Migration
-- The message search index (services/messaging/src/search/), kept by messaging's projection in the same
-- transaction as the messages. It holds no text: each normalized word of a message is a 64-bit keyed hash (HMAC
-- under the room's search key), so the index matches exact words and says nothing without the key.
CREATE SCHEMA IF NOT EXISTS messaging_search;

CREATE TABLE messaging_search.entries (
  message_id text PRIMARY KEY,
  workspace_id text NOT NULL,
  channel_id text NOT NULL,
  seq integer NOT NULL,
  tokens bigint[] NOT NULL
);
CREATE INDEX entries_tokens ON messaging_search.entries USING gin (tokens);
CREATE INDEX entries_workspace_seq ON messaging_search.entries (workspace_id, seq DESC);
CREATE INDEX entries_channel ON messaging_search.entries (channel_id);

-- Down Migration
DROP SCHEMA messaging_search CASCADE;
