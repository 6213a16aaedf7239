-- Up Migration
-- Room administration (issue 7): a kicked member's role reads 'kicked' (refused with KICKED), a member who left
-- 'left'. Existing departures were all member.left.
ALTER TABLE messaging.departed_members ADD COLUMN reason text NOT NULL DEFAULT 'left' CHECK (reason IN ('left', 'kicked'));

-- Down Migration
ALTER TABLE messaging.departed_members DROP COLUMN reason;
