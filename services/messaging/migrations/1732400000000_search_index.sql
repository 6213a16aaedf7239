-- Up Migration
-- The message search index (services/messaging/src/search/): a projection of its own, with its own consumer group
-- and processed-events table. It holds no text: each normalized word of a message is a 64-bit keyed hash (HMAC
-- under the room's search key), so the index matches exact words and says nothing without the key.
CREATE SCHEMA IF NOT EXISTS messaging_search;

CREATE TABLE messaging_search.processed_events (
  event_id uuid PRIMARY KEY,
  processed_at timestamptz NOT NULL DEFAULT now()
);

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
