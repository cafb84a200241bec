/**
 * The state side of the tool server's OAuth: the `oauth_*` tables of the state store (`ctx.state`;
 * statements in `src/store/sql/oauth.ts`) and the few queries the provider needs. Secrets arrive here
 * already hashed (`secretHash`); only the JWT signing secrets are kept as bytes, in the state, so a
 * token signed by one process verifies on every process sharing it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { StateDb } from '../../state/db.js';
import { OAUTH_SQL as SQL } from '../../store/sql/oauth.js';

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

/** True while the API key exists and is not revoked. */
export async function keyActive(state: StateDb, keyId: string): Promise<boolean> {
  const row = await state.get<{ revoked_at: number | null }>(SQL.keyRevokedAt, [keyId]);
  return row !== undefined && row.revoked_at === null;
}

export interface SigningKey {
  kid: string;
  secret: Uint8Array;
}

/**
 * The JWT signing keys of the state, created on first use and kept across restarts. Tokens are signed
 * with the oldest key and verified with the key their header names (`kid`), so two processes that
 * both made a key at the same first moment still accept each other's tokens. Keys never change once
 * written, so each is read once per process.
 */
export function signingKeys(state: StateDb, now: () => number) {
  const byKid = new Map<string, Uint8Array>();
  let current: Promise<SigningKey> | undefined;
  const load = async (): Promise<SigningKey> => {
    let row = await state.get<{ kid: string; secret: Buffer }>(SQL.signingKey);
    if (!row) {
      await state.run(SQL.insertSigningKey, [randomBytes(8).toString('hex'), randomBytes(32), now()]);
      row = (await state.get<{ kid: string; secret: Buffer }>(SQL.signingKey))!;
    }
    const key = { kid: row.kid, secret: new Uint8Array(row.secret) };
    byKid.set(key.kid, key.secret);
    return key;
  };
  return {
    /** The key to sign with. */
    current(): Promise<SigningKey> {
      current ??= load();
      // A failed read (the store unreachable) is tried again on the next call.
      current.catch(() => (current = undefined));
      return current;
    },
    /** The secret of key `kid`, or undefined when the state has no such key. */
    async byId(kid: string | undefined): Promise<Uint8Array | undefined> {
      if (kid === undefined) return undefined;
      const known = byKid.get(kid);
      if (known) return known;
      const row = await state.get<{ secret: Buffer }>(SQL.signingKeyById, [kid]);
      if (!row) return undefined;
      const secret = new Uint8Array(row.secret);
      byKid.set(kid, secret);
      return secret;
    },
  };
}
