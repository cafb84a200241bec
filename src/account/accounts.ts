/**
 * Accounts (tenants) and their API keys. Every write runs in one IMMEDIATE transaction, so an account
 * is never created without its key and its opening trial grant.
 *
 * @example
 * const { api_key } = createAccount(engine, { name: 'Acme' }); // trial, 100 credits
 * grantCredits(engine, account_id, 5000);
 */
import type { Context } from '../runtime/context.js';
import { EngineError } from '../errors.js';
import type { Account } from './types.js';
import { generateKey, keyMatches, keyPrefix } from './keys.js';
import { accountStatements, appendLedger, ledgerBalance, type AccountRow, type KeyRow } from './ledger.js';

/** New trial accounts start with this many credits. */
export const TRIAL_CREDITS = 100;

export interface CreateAccountInput {
  name: string;
  partner_id?: string;
  /** Opening balance; default 100 (trial). */
  credits?: number;
  /** Default `trial`. */
  account_type?: 'trial' | 'paid';
  /** Entitlements beyond the defaults (e.g. `contacts`); `*` grants every entitlement. */
  entitlements?: string[];
  /** Name of the first key (shown in `keys list`, used by `key_name` in credit aggregation). */
  key_name?: string;
}

export interface CreatedAccount {
  account_id: string;
  partner_id: string;
  /** Shown once: only its hash is stored. */
  api_key: string;
}

export interface KeyInfo {
  key_id: string;
  account_id: string;
  prefix: string;
  name: string | null;
  created_at: string;
  revoked_at: string | null;
}

/** Compared against when no key has the presented prefix (SHA-256 of nothing a key can be). */
const NO_KEY_HASH = Buffer.alloc(32);

function toAccount(row: AccountRow): Account {
  return {
    account_id: row.account_id,
    partner_id: row.partner_id,
    name: row.name,
    account_type: row.account_type,
    entitlements: JSON.parse(row.entitlements) as string[],
  };
}

function checkCredits(n: number): void {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new EngineError('BAD_REQUEST', 'credits must be an integer ≥ 0');
}

/** Creates an account with its first API key and opening balance (trial, 100 credits by default). */
export function createAccount(engine: Context, input: CreateAccountInput): CreatedAccount {
  const credits = input.credits ?? TRIAL_CREDITS;
  checkCredits(credits);
  if (typeof input.name !== 'string' || input.name.trim() === '') {
    throw new EngineError('BAD_REQUEST', 'account name is required');
  }
  const s = accountStatements(engine.db);
  const account_id = engine.newId('acc', 8);
  const partner_id = input.partner_id ?? account_id.replace(/^acc_/, 'partner_');
  const now = engine.now();
  return engine.db
    .transaction(() => {
      if (s.accountByPartner.get(partner_id))
        throw new EngineError('CONFLICT', `partner_id '${partner_id}' exists`);
      s.insertAccount.run(
        account_id,
        partner_id,
        input.name,
        input.account_type ?? 'trial',
        JSON.stringify(input.entitlements ?? []),
        now,
      );
      if (credits > 0) appendLedger(engine.db, { account_id, at: now, kind: 'grant', delta: credits });
      const api_key = insertKey(engine, account_id, input.key_name ?? null);
      return { account_id, partner_id, api_key };
    })
    .immediate();
}

function insertKey(engine: Context, accountId: string, name: string | null): string {
  const key = generateKey();
  accountStatements(engine.db).insertKey.run(
    engine.newId('key', 8),
    accountId,
    key.prefix,
    key.hash,
    name,
    engine.now(),
  );
  return key.key;
}

function requireAccount(engine: Context, accountId: string): AccountRow {
  const row = accountStatements(engine.db).accountById.get(accountId) as AccountRow | undefined;
  if (!row) throw new EngineError('NOT_FOUND', `account '${accountId}' not found`);
  return row;
}

/** Issues another key for an account; the returned key is shown once. */
export function issueKey(engine: Context, accountId: string, name?: string): string {
  return engine.db
    .transaction(() => {
      requireAccount(engine, accountId);
      return insertKey(engine, accountId, name ?? null);
    })
    .immediate();
}

/** Revokes a key by id or visible prefix; later requests with it answer 401. Returns false if unknown. */
export function revokeKey(engine: Context, keyIdOrPrefix: string): boolean {
  const s = accountStatements(engine.db);
  return engine.db
    .transaction(() => {
      const row = s.keyById.get(keyIdOrPrefix, keyIdOrPrefix) as KeyRow | undefined;
      if (!row) return false;
      s.revokeKey.run(engine.now(), row.key_id);
      return true;
    })
    .immediate();
}

/** Adds `n` credits (a ledger grant) and returns the new balance. */
export function grantCredits(engine: Context, accountId: string, n: number): number {
  checkCredits(n);
  return engine.db
    .transaction(() => {
      requireAccount(engine, accountId);
      return appendLedger(engine.db, { account_id: accountId, at: engine.now(), kind: 'grant', delta: n });
    })
    .immediate();
}

/** Marks an account trial or paid. */
export function setAccountType(engine: Context, accountId: string, type: 'trial' | 'paid'): void {
  engine.db
    .transaction(() => {
      requireAccount(engine, accountId);
      accountStatements(engine.db).setAccountType.run(type, accountId);
    })
    .immediate();
}

/** Keys of one account (or of all), without secrets. */
export function listKeys(engine: Context, accountId?: string): KeyInfo[] {
  const s = accountStatements(engine.db);
  const rows = (accountId ? s.keysOfAccount.all(accountId) : s.allKeys.all()) as KeyRow[];
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return rows.map((r) => ({
    key_id: r.key_id,
    account_id: r.account_id,
    prefix: r.prefix,
    name: r.name,
    created_at: iso(r.created_at)!,
    revoked_at: iso(r.revoked_at),
  }));
}

/** Current balance of an account. */
export function balance(engine: Context, accountId: string): number {
  return ledgerBalance(engine.db, accountId);
}

/** Credits granted to an account over its lifetime. */
export function allocatedCredits(engine: Context, accountId: string): number {
  return accountStatements(engine.db).allocated.get(accountId) as number;
}

export function getAccount(engine: Context, accountId: string): Account | null {
  const row = accountStatements(engine.db).accountById.get(accountId) as AccountRow | undefined;
  return row ? toAccount(row) : null;
}

export function getAccountByPartner(engine: Context, partnerId: string): Account | null {
  const row = accountStatements(engine.db).accountByPartner.get(partnerId) as AccountRow | undefined;
  return row ? toAccount(row) : null;
}

export function listAccounts(engine: Context): Account[] {
  return (accountStatements(engine.db).allAccounts.all() as AccountRow[]).map(toAccount);
}

export type Authentication =
  | { ok: true; account: Account; keyId: string }
  | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'revoked' };

/** Resolves a presented API key to its account (constant-time hash comparison). */
export function authenticate(engine: Context, key: string | undefined): Authentication {
  if (key === undefined || key === '') return { ok: false, reason: 'missing' };
  const prefix = keyPrefix(key.trim());
  if (!prefix) return { ok: false, reason: 'malformed' };
  const s = accountStatements(engine.db);
  const row = s.keyByPrefix.get(prefix) as KeyRow | undefined;
  // An unknown prefix is compared too (against a hash no key has), so both refusals cost the same.
  const matches = keyMatches(key.trim(), row?.hash ?? NO_KEY_HASH);
  if (!row || !matches) return { ok: false, reason: 'unknown' };
  if (row.revoked_at !== null) return { ok: false, reason: 'revoked' };
  const account = s.accountById.get(row.account_id) as AccountRow | undefined;
  if (!account) return { ok: false, reason: 'unknown' };
  return { ok: true, account: toAccount(account), keyId: row.key_id };
}

/** Library surface: `engine.accounts`. */
export function accountsApi(engine: Context) {
  return {
    create: (input: CreateAccountInput) => createAccount(engine, input),
    issueKey: (accountId: string, name?: string) => issueKey(engine, accountId, name),
    revokeKey: (keyIdOrPrefix: string) => revokeKey(engine, keyIdOrPrefix),
    grantCredits: (accountId: string, n: number) => grantCredits(engine, accountId, n),
    listKeys: (accountId?: string) => listKeys(engine, accountId),
    balance: (accountId: string) => balance(engine, accountId),
    get: (accountId: string) => getAccount(engine, accountId),
    list: () => listAccounts(engine),
  };
}
export type AccountsApi = ReturnType<typeof accountsApi>;
