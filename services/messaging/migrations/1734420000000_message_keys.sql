-- Up Migration
-- Each living message's own key, wrapped under its room's key (docs/crypto.md "Messages";
-- services/messaging/src/message-keys.ts): the message's body in the event log is sealed under it, and deleting the
-- message deletes the key, so the body no longer opens anywhere. Written before the message's event is appended.
CREATE TABLE messaging.message_keys (
  message_id text PRIMARY KEY,
  workspace_id text NOT NULL,
  wrapped_key text NOT NULL
);
CREATE INDEX message_keys_workspace ON messaging.message_keys (workspace_id);

-- Down Migration
DROP TABLE messaging.message_keys;
