/**
 * Accounts (tenants) and their API keys, in the state store (`ctx.state`, SQLite or PostgreSQL). Every
 * write runs in one transaction of the state, so an account is never created without its key and its
 * opening trial grant.
 *
 * @example
 * const { api_key } = await createAccount(engine, { name: 'Acme' }); // trial, 100 credits
 * await grantCredits(engine, account_id, 5000);
 */
import type { Context } from '../runtime/context.js';
import { EngineError } from '../errors.js';
import { ACCOUNT_SQL as SQL } from '../store/sql/accounts.js';
import type { Account } from './types.js';
import { generateKey, keyMatches, keyPrefix } from './keys.js';
import { ledgerBalance, postEntries, type AccountRow, type KeyRow } from './ledger.js';

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

function toAccount(row: Omit<AccountRow, 'created_at' | 'balance'>): Account {
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

/** A unique constraint refused the row (SQLite and PostgreSQL spell it differently). */
function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** Creates an account with its first API key and opening balance (trial, 100 credits by default). */
export async function createAccount(engine: Context, input: CreateAccountInput): Promise<CreatedAccount> {
  const credits = input.credits ?? TRIAL_CREDITS;
  checkCredits(credits);
  if (typeof input.name !== 'string' || input.name.trim() === '') {
    throw new EngineError('BAD_REQUEST', 'account name is required');
  }
  const { state } = engine;
  const account_id = engine.newId('acc', 8);
  const partner_id = input.partner_id ?? account_id.replace(/^acc_/, 'partner_');
  const now = engine.now();
  const conflict = () => new EngineError('CONFLICT', `partner_id '${partner_id}' exists`);
  try {
    return await state.transaction(async () => {
      if (await state.get(SQL.accountByPartner, [partner_id])) throw conflict();
      await state.run(SQL.insertAccount, [
        account_id,
        partner_id,
        input.name,
        input.account_type ?? 'trial',
        JSON.stringify(input.entitlements ?? []),
        now,
        0,
      ]);
      if (credits > 0) await postEntries(state, [{ account_id, at: now, kind: 'grant', delta: credits }]);
      const api_key = await insertKey(engine, account_id, input.key_name ?? null);
      return { account_id, partner_id, api_key };
    });
  } catch (e) {
    // Two processes creating the same partner at once: the loser's insert meets the unique index.
    if (isUniqueViolation(e)) throw conflict();
    throw e;
  }
}

async function insertKey(engine: Context, accountId: string, name: string | null): Promise<string> {
  const key = generateKey();
  await engine.state.run(SQL.insertKey, [
    engine.newId('key', 8),
    accountId,
    key.prefix,
    key.hash,
    name,
    engine.now(),
  ]);
  return key.key;
}

async function requireAccount(engine: Context, accountId: string): Promise<AccountRow> {
  const row = await engine.state.get<AccountRow>(SQL.accountById, [accountId]);
  if (!row) throw new EngineError('NOT_FOUND', `account '${accountId}' not found`);
  return row;
}

/** Issues another key for an account; the returned key is shown once. */
export async function issueKey(engine: Context, accountId: string, name?: string): Promise<string> {
  return engine.state.transaction(async () => {
    await requireAccount(engine, accountId);
    return insertKey(engine, accountId, name ?? null);
  });
}

/** Revokes a key by id or visible prefix; later requests with it answer 401. Returns false if unknown. */
export async function revokeKey(engine: Context, keyIdOrPrefix: string): Promise<boolean> {
  const { state } = engine;
  return state.transaction(async () => {
    const row = await state.get<KeyRow>(SQL.keyById, [keyIdOrPrefix, keyIdOrPrefix]);
    if (!row) return false;
    await state.run(SQL.revokeKey, [engine.now(), row.key_id]);
    return true;
  });
}

/** Adds `n` credits (a ledger grant) and returns the new balance. */
export async function grantCredits(engine: Context, accountId: string, n: number): Promise<number> {
  checkCredits(n);
  return engine.state.transaction(async () => {
    if (n === 0) return (await requireAccount(engine, accountId)).balance;
    return postEntries(engine.state, [{ account_id: accountId, at: engine.now(), kind: 'grant', delta: n }]);
  });
}

/** Marks an account trial or paid. */
export async function setAccountType(
  engine: Context,
  accountId: string,
  type: 'trial' | 'paid',
): Promise<void> {
  if ((await engine.state.run(SQL.setAccountType, [type, accountId])) === 0)
    throw new EngineError('NOT_FOUND', `account '${accountId}' not found`);
}

/** Replaces an account's entitlements beyond the defaults (`*` grants every entitlement). */
export async function setEntitlements(
  engine: Context,
  accountId: string,
  entitlements: string[],
): Promise<void> {
  if ((await engine.state.run(SQL.setEntitlements, [JSON.stringify(entitlements), accountId])) === 0)
    throw new EngineError('NOT_FOUND', `account '${accountId}' not found`);
}

/** Keys of one account (or of all), without secrets. */
export async function listKeys(engine: Context, accountId?: string): Promise<KeyInfo[]> {
  const rows = accountId
    ? await engine.state.all<KeyRow>(SQL.keysOfAccount, [accountId])
    : await engine.state.all<KeyRow>(SQL.allKeys);
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
export function balance(engine: Context, accountId: string): Promise<number> {
  return ledgerBalance(engine.state, accountId);
}

/** Credits granted to an account over its lifetime. */
export async function allocatedCredits(engine: Context, accountId: string): Promise<number> {
  return (await engine.state.value<number>(SQL.allocated, [accountId])) ?? 0;
}

export async function getAccount(engine: Context, accountId: string): Promise<Account | undefined> {
  const row = await engine.state.get<AccountRow>(SQL.accountById, [accountId]);
  return row ? toAccount(row) : undefined;
}

export async function getAccountByPartner(engine: Context, partnerId: string): Promise<Account | undefined> {
  const row = await engine.state.get<AccountRow>(SQL.accountByPartner, [partnerId]);
  return row ? toAccount(row) : undefined;
}

export async function listAccounts(engine: Context): Promise<Account[]> {
  return (await engine.state.all<AccountRow>(SQL.allAccounts)).map(toAccount);
}

export type Authentication =
  | { ok: true; account: Account; keyId: string }
  | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'revoked' };

interface KeyWithAccount extends Omit<AccountRow, 'created_at' | 'balance'> {
  key_id: string;
  hash: Buffer;
  revoked_at: number | null;
}

/**
 * Resolves a presented API key to its account (constant-time hash comparison): one statement, the key
 * joined with its account.
 */
export async function authenticate(engine: Context, key: string | undefined): Promise<Authentication> {
  if (key === undefined || key === '') return { ok: false, reason: 'missing' };
  const prefix = keyPrefix(key.trim());
  if (!prefix) return { ok: false, reason: 'malformed' };
  const row = await engine.state.get<KeyWithAccount>(SQL.keyWithAccount, [prefix]);
  // An unknown prefix is compared too (against a hash no key has), so both refusals cost the same.
  const matches = keyMatches(key.trim(), row?.hash ?? NO_KEY_HASH);
  if (!row || !matches) return { ok: false, reason: 'unknown' };
  if (row.revoked_at !== null) return { ok: false, reason: 'revoked' };
  return { ok: true, account: toAccount(row), keyId: row.key_id };
}

/** Library surface: `engine.accounts` (every member returns a promise). */
export function accountsApi(engine: Context) {
  return {
    create: (input: CreateAccountInput) => createAccount(engine, input),
    issueKey: (accountId: string, name?: string) => issueKey(engine, accountId, name),
    revokeKey: (keyIdOrPrefix: string) => revokeKey(engine, keyIdOrPrefix),
    grantCredits: (accountId: string, n: number) => grantCredits(engine, accountId, n),
    setEntitlements: (accountId: string, entitlements: string[]) =>
      setEntitlements(engine, accountId, entitlements),
    listKeys: (accountId?: string) => listKeys(engine, accountId),
    balance: (accountId: string) => balance(engine, accountId),
    get: (accountId: string) => getAccount(engine, accountId),
    list: () => listAccounts(engine),
  };
}
export type AccountsApi = ReturnType<typeof accountsApi>;
