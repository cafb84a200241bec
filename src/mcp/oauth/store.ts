/**
 * SQLite side of the tool server's OAuth: prepared statements over the `oauth_*` tables
 * (`src/account/oauth-schema.ts`) and the few queries the provider needs. Secrets arrive here already
 * hashed (`secretHash`); only the JWT signing secret is kept as bytes.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../../store/open.js';
import { preparedOnce } from '../../store/statements.js';

/** SHA-256 of a code, token or request id: what the tables store instead of the secret. */
export function secretHash(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** A fresh opaque secret (codes, refresh tokens, request ids): 256 random bits, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export interface RequestRow {
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  state: string | null;
  scopes: string;
  resource: string | null;
  expires_at: number;
}

export interface GrantRow {
  grant_id: string;
  client_id: string;
  account_id: string;
  key_id: string;
  scopes: string;
  resource: string | null;
  created_at: number;
  revoked_at: number | null;
}

export interface CodeRow {
  grant_id: string;
  redirect_uri: string;
  code_challenge: string;
  expires_at: number;
  used_at: number | null;
}

export interface TokenRow {
  kind: 'access' | 'refresh';
  grant_id: string;
  expires_at: number;
  revoked_at: number | null;
}

const SQL = {
  clientById: 'SELECT metadata FROM oauth_clients WHERE client_id = ?',
  insertClient: 'INSERT INTO oauth_clients (client_id, metadata, created_at) VALUES (?, ?, ?)',
  signingKey: 'SELECT kid, secret FROM oauth_signing_keys ORDER BY created_at DESC LIMIT 1',
  insertSigningKey: 'INSERT INTO oauth_signing_keys (kid, secret, created_at) VALUES (?, ?, ?)',
  insertRequest: `INSERT INTO oauth_requests (request_hash, client_id, redirect_uri, code_challenge, state, scopes, resource, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  requestByHash: 'SELECT * FROM oauth_requests WHERE request_hash = ?',
  deleteRequest: 'DELETE FROM oauth_requests WHERE request_hash = ?',
  purgeRequests: 'DELETE FROM oauth_requests WHERE expires_at < ?',
  insertGrant: `INSERT INTO oauth_grants (grant_id, client_id, account_id, key_id, scopes, resource, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
  grantById: 'SELECT * FROM oauth_grants WHERE grant_id = ?',
  revokeGrant: 'UPDATE oauth_grants SET revoked_at = ? WHERE grant_id = ? AND revoked_at IS NULL',
  revokeGrantTokens: 'UPDATE oauth_tokens SET revoked_at = ? WHERE grant_id = ? AND revoked_at IS NULL',
  insertCode:
    'INSERT INTO oauth_codes (code_hash, grant_id, redirect_uri, code_challenge, expires_at) VALUES (?, ?, ?, ?, ?)',
  codeByHash: 'SELECT * FROM oauth_codes WHERE code_hash = ?',
  useCode: 'UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL',
  insertToken: 'INSERT INTO oauth_tokens (token_hash, kind, grant_id, expires_at) VALUES (?, ?, ?, ?)',
  tokenByHash: 'SELECT kind, grant_id, expires_at, revoked_at FROM oauth_tokens WHERE token_hash = ?',
  revokeToken: 'UPDATE oauth_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL',
  purgeTokens: 'DELETE FROM oauth_tokens WHERE expires_at < ?',
  keyRevokedAt: 'SELECT revoked_at FROM api_keys WHERE key_id = ?',
} as const;

export type OAuthStatements = { readonly [K in keyof typeof SQL]: Statement };

function prepare(db: Db): OAuthStatements {
  const out: Partial<Record<keyof typeof SQL, Statement>> = {};
  for (const [name, sql] of Object.entries(SQL) as [keyof typeof SQL, string][]) out[name] = db.prepare(sql);
  return out as OAuthStatements;
}
/** The OAuth statements of a database, prepared on first use. */
export const oauthStatements: (db: Db) => OAuthStatements = preparedOnce(prepare);

/** True while the API key exists and is not revoked. */
export function keyActive(db: Db, keyId: string): boolean {
  const row = oauthStatements(db).keyRevokedAt.get(keyId) as { revoked_at: number | null } | undefined;
  return row !== undefined && row.revoked_at === null;
}

/** The JWT signing secret of this database, created on first use (kept across restarts). */
export function signingKey(db: Db, now: number): { kid: string; secret: Uint8Array } {
  const s = oauthStatements(db);
  return db
    .transaction(() => {
      const row = s.signingKey.get() as { kid: string; secret: Buffer } | undefined;
      if (row) return { kid: row.kid, secret: new Uint8Array(row.secret) };
      const kid = randomBytes(8).toString('hex');
      const secret = randomBytes(32);
      s.insertSigningKey.run(kid, secret, now);
      return { kid, secret: new Uint8Array(secret) };
    })
    .immediate();
}
