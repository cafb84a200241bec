/**
 * SQLite side of the tool server's OAuth: prepared statements over the `oauth_*` tables
 * (`src/store/sql/oauth.ts`) and the few queries the provider needs. Secrets arrive here already
 * hashed (`secretHash`); only the JWT signing secret is kept as bytes.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../store/open.js';
import { oauthStatements } from '../../store/sql/oauth.js';

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

// The statements are in `store/sql/oauth.ts`; re-exported for the provider.
export { oauthStatements, type OAuthStatements } from '../../store/sql/oauth.js';

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
