/**
 * DDL of the tool server's OAuth state (src/mcp/oauth). Secrets are never stored: authorisation
 * requests, codes and tokens are kept as SHA-256 hashes. A grant binds one approval to the account and
 * the API key that approved it; revoking the grant or the key ends every token issued under it.
 * Registered clients are public (PKCE, no client secret), so a client row holds nothing secret.
 * The tables live in the state store (`ctx.state`, SQLite or PostgreSQL): every statement below is in
 * the subset both read (`?` placeholders, `RETURNING`, integers for times). Single-use secrets (a
 * pending request, a code, a refresh token) are consumed by one guarded statement, so two processes
 * or machines sharing the state can never both redeem the same one.
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

/** Every statement of the OAuth state. */
export const OAUTH_SQL = {
  clientById: 'SELECT metadata FROM oauth_clients WHERE client_id = ?',
  insertClient: 'INSERT INTO oauth_clients (client_id, metadata, created_at) VALUES (?, ?, ?)',
  /** The key new tokens are signed with: the oldest, so every process picks the same one. */
  signingKey: 'SELECT kid, secret FROM oauth_signing_keys ORDER BY created_at, kid LIMIT 1',
  signingKeyById: 'SELECT secret FROM oauth_signing_keys WHERE kid = ?',
  insertSigningKey: 'INSERT INTO oauth_signing_keys (kid, secret, created_at) VALUES (?, ?, ?)',
  insertRequest: `INSERT INTO oauth_requests (request_hash, client_id, redirect_uri, code_challenge, state, scopes, resource, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  requestByHash: 'SELECT * FROM oauth_requests WHERE request_hash = ?',
  /** Consumes a pending request: only one caller gets its row back. */
  takeRequest: 'DELETE FROM oauth_requests WHERE request_hash = ? RETURNING *',
  purgeRequests: 'DELETE FROM oauth_requests WHERE expires_at < ?',
  insertGrant: `INSERT INTO oauth_grants (grant_id, client_id, account_id, key_id, scopes, resource, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
  grantById: 'SELECT * FROM oauth_grants WHERE grant_id = ?',
  revokeGrant: 'UPDATE oauth_grants SET revoked_at = ? WHERE grant_id = ? AND revoked_at IS NULL',
  revokeGrantTokens: 'UPDATE oauth_tokens SET revoked_at = ? WHERE grant_id = ? AND revoked_at IS NULL',
  insertCode:
    'INSERT INTO oauth_codes (code_hash, grant_id, redirect_uri, code_challenge, expires_at) VALUES (?, ?, ?, ?, ?)',
  codeByHash: 'SELECT * FROM oauth_codes WHERE code_hash = ?',
  /** Marks a code used (kept, so a replay is recognised): changes one row for one caller only. */
  useCode: 'UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL',
  purgeCodes: 'DELETE FROM oauth_codes WHERE expires_at < ?',
  insertToken: 'INSERT INTO oauth_tokens (token_hash, kind, grant_id, expires_at) VALUES (?, ?, ?, ?)',
  tokenByHash: 'SELECT kind, grant_id, expires_at, revoked_at FROM oauth_tokens WHERE token_hash = ?',
  /** Rotates a refresh token out: changes one row for one caller only. */
  revokeToken: 'UPDATE oauth_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL',
  purgeTokens: 'DELETE FROM oauth_tokens WHERE expires_at < ?',
  keyRevokedAt: 'SELECT revoked_at FROM api_keys WHERE key_id = ?',
} as const;
