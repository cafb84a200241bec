/**
 * DDL of the tool server's OAuth state (src/mcp/oauth). Secrets are never stored: authorisation
 * requests, codes and tokens are kept as SHA-256 hashes. A grant binds one approval to the account and
 * the API key that approved it; revoking the grant or the key ends every token issued under it.
 * Registered clients are public (PKCE, no client secret), so a client row holds nothing secret.
 */
export const OAUTH_SCHEMA = `
CREATE TABLE IF NOT EXISTS oauth_clients (
  client_id TEXT PRIMARY KEY,
  metadata TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS oauth_signing_keys (
  kid TEXT PRIMARY KEY,
  secret BLOB NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

-- An authorisation request waiting for a human to approve it on the sign-in page.
CREATE TABLE IF NOT EXISTS oauth_requests (
  request_hash BLOB PRIMARY KEY,
  client_id TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  state TEXT,
  scopes TEXT NOT NULL,
  resource TEXT,
  expires_at INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS oauth_grants (
  grant_id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts (account_id),
  key_id TEXT NOT NULL REFERENCES api_keys (key_id),
  scopes TEXT NOT NULL,
  resource TEXT,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;
CREATE INDEX IF NOT EXISTS oauth_grants_key ON oauth_grants (key_id);

CREATE TABLE IF NOT EXISTS oauth_codes (
  code_hash BLOB PRIMARY KEY,
  grant_id TEXT NOT NULL REFERENCES oauth_grants (grant_id),
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
) STRICT;

CREATE TABLE IF NOT EXISTS oauth_tokens (
  token_hash BLOB PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  grant_id TEXT NOT NULL REFERENCES oauth_grants (grant_id),
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;
CREATE INDEX IF NOT EXISTS oauth_tokens_grant ON oauth_tokens (grant_id);
`;
