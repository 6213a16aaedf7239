-- Up Migration
-- The billing service's state (issue 9). accounts is a projection of the billing-events topic
-- (services/billing/src/projection.ts), rebuilt by a replay. Sign-in codes, OIDC flows and sessions are
-- credentials, not domain facts: they live only here, hashed, and are never replayed (a restore signs everyone out).
CREATE SCHEMA IF NOT EXISTS billing;

CREATE TABLE billing.processed_events (
  event_id uuid PRIMARY KEY,
  processed_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE billing.accounts (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE,              -- lower-cased
  username text NOT NULL,
  tier text NOT NULL DEFAULT 'free',
  payment_status text NOT NULL DEFAULT 'active',
  subscription_expires_at timestamptz,     -- null = never
  auto_renewal boolean NOT NULL DEFAULT false,
  google_id text UNIQUE,
  picture text,
  created_at timestamptz NOT NULL,
  last_seq integer NOT NULL DEFAULT 0      -- sequence of the account's last event
);

-- One-time sign-in codes: HMAC of (address, code), never the code; single use; a few wrong tries burn it.
CREATE TABLE billing.sign_in_codes (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  code_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  used_at timestamptz
);
CREATE INDEX sign_in_codes_email ON billing.sign_in_codes (email, expires_at);

-- Sessions: sha256 of the bearer token; revoked_at set by sign-out (one, or every session of the account).
CREATE TABLE billing.sessions (
  token_hash text PRIMARY KEY,
  account_id text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_account ON billing.sessions (account_id);

-- OpenID Connect flows in progress (state -> PKCE verifier, nonce, where to go after) and the hand-off of a
-- verified callback to the page (an httpOnly cookie carries its id): both single use, minutes long.
CREATE TABLE billing.oidc_flows (
  state text PRIMARY KEY,
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  redirect text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE TABLE billing.oidc_handoffs (
  id_hash text PRIMARY KEY,
  account_id text NOT NULL,
  expires_at timestamptz NOT NULL
);

-- Down Migration
DROP SCHEMA billing CASCADE;
