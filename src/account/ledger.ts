/**
 * The account store: prepared statements (created once per database) and the append-only credit
 * ledger. Every ledger row holds the running balance after it, so the balance is one indexed read and
 * the CHECK (balance >= 0) makes an overdraft impossible at the storage level.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/open.js';
import { preparedOnce } from '../store/statements.js';

export interface AccountRow {
  account_id: string;
  partner_id: string;
  name: string;
  account_type: 'trial' | 'paid';
  entitlements: string;
  created_at: number;
}

export interface KeyRow {
  key_id: string;
  account_id: string;
  prefix: string;
  hash: Buffer;
  name: string | null;
  created_at: number;
  revoked_at: number | null;
}

export interface LedgerEntry {
  account_id: string;
  at: number;
  kind: 'grant' | 'charge';
  delta: number;
  operation?: string | null;
  units?: number | null;
  endpoint?: string | null;
  key_id?: string | null;
  correlation_id?: string | null;
}

/** Every statement the accounts module runs, prepared once per database. */
const SQL = {
  insertAccount:
    'INSERT INTO accounts (account_id, partner_id, name, account_type, entitlements, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  accountById: 'SELECT * FROM accounts WHERE account_id = ?',
  accountByPartner: 'SELECT * FROM accounts WHERE partner_id = ?',
  allAccounts: 'SELECT * FROM accounts ORDER BY created_at, account_id',
  setAccountType: 'UPDATE accounts SET account_type = ? WHERE account_id = ?',
  insertKey:
    'INSERT INTO api_keys (key_id, account_id, prefix, hash, name, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  keyByPrefix: 'SELECT * FROM api_keys WHERE prefix = ?',
  keyById: 'SELECT * FROM api_keys WHERE key_id = ? OR prefix = ?',
  keysOfAccount: 'SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, key_id',
  allKeys: 'SELECT * FROM api_keys ORDER BY created_at, key_id',
  revokeKey: 'UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL',
  balance: 'SELECT balance FROM credit_ledger WHERE account_id = ? ORDER BY entry_id DESC LIMIT 1',
  allocated: "SELECT coalesce(sum(delta), 0) FROM credit_ledger WHERE account_id = ? AND kind = 'grant'",
  appendEntry: `INSERT INTO credit_ledger (account_id, at, kind, delta, balance, operation, units, endpoint, key_id, correlation_id)
       VALUES (@account_id, @at, @kind, @delta, @balance, @operation, @units, @endpoint, @key_id, @correlation_id)`,
  chargesBetween: `SELECT l.at, -l.delta AS credits, l.endpoint, l.operation, l.units, k.name AS key_name
       FROM credit_ledger l LEFT JOIN api_keys k ON k.key_id = l.key_id
       WHERE l.account_id = ? AND l.kind = 'charge' AND l.at >= ? AND l.at < ? ORDER BY l.entry_id`,
  ledgerCount: 'SELECT count(*) FROM credit_ledger',
  menuRows: 'SELECT operation, credit_cost FROM credit_menu WHERE partner_id = ?',
  upsertMenuRow: `INSERT INTO credit_menu (partner_id, operation, credit_cost) VALUES (?, ?, ?)
       ON CONFLICT (partner_id, operation) DO UPDATE SET credit_cost = excluded.credit_cost`,
  deleteMenuRow: 'DELETE FROM credit_menu WHERE partner_id = ? AND operation = ?',
} as const;

/** Statements that return the first column's value (`.pluck()`). */
const PLUCKED: ReadonlySet<keyof typeof SQL> = new Set(['balance', 'allocated', 'ledgerCount']);

// Named through the imported `Statement` so declaration emit can spell the type.
export type AccountStatements = { readonly [K in keyof typeof SQL]: Statement };

function prepare(db: Db): AccountStatements {
  const out: Partial<Record<keyof typeof SQL, Statement>> = {};
  for (const name of Object.keys(SQL) as (keyof typeof SQL)[]) {
    const statement = db.prepare(SQL[name]);
    out[name] = PLUCKED.has(name) ? statement.pluck() : statement;
  }
  return out as AccountStatements;
}

/** The account statements of a database, prepared on first use. */
export const accountStatements: (db: Db) => AccountStatements = preparedOnce(prepare);

/** Current balance (0 for an account without ledger rows). */
export function ledgerBalance(db: Db, accountId: string): number {
  return (accountStatements(db).balance.get(accountId) as number | undefined) ?? 0;
}

/**
 * Appends one entry and returns the new balance. Call inside a transaction: the read of the previous
 * balance and the insert must not interleave with another writer (IMMEDIATE transactions guarantee it).
 */
export function appendLedger(db: Db, entry: LedgerEntry): number {
  const s = accountStatements(db);
  const balance = ledgerBalance(db, entry.account_id) + entry.delta;
  s.appendEntry.run({
    operation: null,
    units: null,
    endpoint: null,
    key_id: null,
    correlation_id: null,
    ...entry,
    balance,
  });
  return balance;
}
