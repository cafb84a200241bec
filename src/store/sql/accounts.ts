/**
 * DDL of the account state: tenants, hashed API keys, the append-only credit ledger and per-partner
 * charging-menu overrides. The ledger row carries the running balance, and a CHECK keeps it ≥ 0, so
 * no write path can ever overdraw an account even if a caller skips the balance check.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db.js';
import { preparedOnce } from '../statements.js';
export const ACCOUNT_SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  account_id TEXT PRIMARY KEY,
  partner_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  account_type TEXT NOT NULL CHECK (account_type IN ('trial', 'paid')),
  entitlements TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS api_keys (
  key_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (account_id),
  prefix TEXT NOT NULL UNIQUE,
  hash BLOB NOT NULL,
  name TEXT,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;
CREATE INDEX IF NOT EXISTS api_keys_account ON api_keys (account_id);

CREATE TABLE IF NOT EXISTS credit_ledger (
  entry_id INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (account_id),
  at INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('grant', 'charge')),
  delta INTEGER NOT NULL,
  balance INTEGER NOT NULL CHECK (balance >= 0),
  operation TEXT,
  units INTEGER,
  endpoint TEXT,
  key_id TEXT,
  correlation_id TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS credit_ledger_account ON credit_ledger (account_id, entry_id);
CREATE INDEX IF NOT EXISTS credit_ledger_account_at ON credit_ledger (account_id, at);
CREATE TRIGGER IF NOT EXISTS credit_ledger_no_update BEFORE UPDATE ON credit_ledger
  BEGIN SELECT RAISE(ABORT, 'credit_ledger is append-only'); END;
CREATE TRIGGER IF NOT EXISTS credit_ledger_no_delete BEFORE DELETE ON credit_ledger
  BEGIN SELECT RAISE(ABORT, 'credit_ledger is append-only'); END;

CREATE TABLE IF NOT EXISTS credit_menu (
  partner_id TEXT NOT NULL,
  operation TEXT NOT NULL,
  credit_cost INTEGER NOT NULL CHECK (credit_cost >= 0),
  PRIMARY KEY (partner_id, operation)
) STRICT;
`;

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
