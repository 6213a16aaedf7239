-- Up Migration
-- Contact messages (POST /api/contact; the admin's Feedback tab reads them). A projection of the contact.* events of
-- the billing topic (services/billing/src/contact.ts), rebuilt by a replay. Each message's events are sealed under a
-- key of its own in the log; deleting a message destroys that key, then its tombstone removes the row.
CREATE TABLE billing.contact_messages (
  id text PRIMARY KEY,                                   -- ctm_...
  name text NOT NULL,
  email text NOT NULL,                                   -- lower-cased
  category text NOT NULL,                                -- general, support, billing, feature, bug, partnership, other
  message text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'read', 'responded', 'archived')),
  received_at timestamptz NOT NULL,
  status_changed_at timestamptz,
  last_seq integer NOT NULL DEFAULT 0                    -- sequence of the message's last event
);
CREATE INDEX contact_messages_received ON billing.contact_messages (received_at DESC, id);

-- Down Migration
DROP TABLE billing.contact_messages;
