/**
 * SQL of the account state: tenants, hashed API keys, the append-only credit ledger, per-partner
 * charging-menu overrides and the shared rate-limit windows. The account row holds the balance
 * (`CHECK (balance >= 0)`): a charge is one guarded `UPDATE … WHERE balance >= ? RETURNING balance`,
 * which locks the row in PostgreSQL and runs under the write lock in SQLite, so concurrent charges
 * from any number of processes never overdraw and never double-charge. Every ledger row still carries
 * the running balance after it (the audit trail; the same CHECK). Statements are plain portable SQL
 * (`?` placeholders) run through `ctx.state`; the DDL is SQLite's dialect, translated for PostgreSQL
 * by `state/schema.ts`.
 */
import type { StateMigration } from './migration.js';
export const ACCOUNT_SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  account_id TEXT PRIMARY KEY,
  partner_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  account_type TEXT NOT NULL CHECK (account_type IN ('trial', 'paid')),
  entitlements TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  balance INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0)
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

-- key_id: what the limit counts per, an API key's visible prefix (or an OAuth caller's key id).
CREATE TABLE IF NOT EXISTS rate_windows (
  key_id TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  hits INTEGER NOT NULL,
  PRIMARY KEY (key_id, window_start)
) STRICT;
CREATE INDEX IF NOT EXISTS rate_windows_start ON rate_windows (window_start);
`;

/** The latest running balance of every account, from the ledger (what the balance column starts at). */
const FILL_BALANCE = `UPDATE accounts SET balance = coalesce((SELECT l.balance FROM credit_ledger l
  WHERE l.account_id = accounts.account_id ORDER BY l.entry_id DESC LIMIT 1), 0)`;

/**
 * Stores made before the balance column (every single-file database before the split): the column,
 * filled from the ledger. `rate_windows` is new and comes with the DDL that runs after migrations.
 */
export const ACCOUNT_MIGRATIONS: readonly StateMigration[] = [
  {
    version: 1,
    sqlite: `ALTER TABLE accounts ADD COLUMN balance INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0);
${FILL_BALANCE};`,
    postgres: `ALTER TABLE accounts ADD COLUMN IF NOT EXISTS balance BIGINT NOT NULL DEFAULT 0 CHECK (balance >= 0);
${FILL_BALANCE};`,
  },
];

const ACCOUNT_COLUMNS = 'account_id, partner_id, name, account_type, entitlements, created_at, balance';
const KEY_COLUMNS = 'key_id, account_id, prefix, hash, name, created_at, revoked_at';

/** Every statement of the account area: portable SQL with `?` placeholders, run through `ctx.state`. */
export const ACCOUNT_SQL = {
  insertAccount:
    'INSERT INTO accounts (account_id, partner_id, name, account_type, entitlements, created_at, balance) VALUES (?, ?, ?, ?, ?, ?, ?)',
  accountById: `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE account_id = ?`,
  accountByPartner: `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE partner_id = ?`,
  allAccounts: `SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY created_at, account_id`,
  setAccountType: 'UPDATE accounts SET account_type = ? WHERE account_id = ?',
  setEntitlements: 'UPDATE accounts SET entitlements = ? WHERE account_id = ?',
  insertKey:
    'INSERT INTO api_keys (key_id, account_id, prefix, hash, name, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  /** Authentication in one statement: the key and its account. */
  keyWithAccount: `SELECT k.key_id, k.hash, k.revoked_at, a.account_id, a.partner_id, a.name, a.account_type, a.entitlements
       FROM api_keys k JOIN accounts a ON a.account_id = k.account_id WHERE k.prefix = ?`,
  keyById: `SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_id = ? OR prefix = ?`,
  keysOfAccount: `SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = ? ORDER BY created_at, key_id`,
  allKeys: `SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, key_id`,
  revokeKey: 'UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL',
  balance: 'SELECT balance FROM accounts WHERE account_id = ?',
  /** The debit: changes nothing (no row back) when the balance does not cover it. */
  debit: 'UPDATE accounts SET balance = balance - ? WHERE account_id = ? AND balance >= ? RETURNING balance',
  credit: 'UPDATE accounts SET balance = balance + ? WHERE account_id = ? RETURNING balance',
  allocated: "SELECT coalesce(sum(delta), 0) FROM credit_ledger WHERE account_id = ? AND kind = 'grant'",
  /**
   * PostgreSQL only (SQLite has no UPDATE in a WITH): the debit and its one ledger row in a single
   * statement, atomic by itself, so a standalone charge is one round trip instead of BEGIN, debit,
   * insert, COMMIT. No row back when the balance does not cover it (nothing is written then).
   */
  debitWithEntry: `WITH debit AS (
         UPDATE accounts SET balance = balance - ? WHERE account_id = ? AND balance >= ? RETURNING balance)
       INSERT INTO credit_ledger (account_id, at, kind, delta, balance, operation, units, endpoint, key_id, correlation_id)
       SELECT ?, ?, ?, ?, balance, ?, ?, ?, ?, ? FROM debit RETURNING balance`,
  appendEntry: `INSERT INTO credit_ledger (account_id, at, kind, delta, balance, operation, units, endpoint, key_id, correlation_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  chargesBetween: `SELECT l.at, -l.delta AS credits, l.endpoint, l.operation, l.units, k.name AS key_name
       FROM credit_ledger l LEFT JOIN api_keys k ON k.key_id = l.key_id
       WHERE l.account_id = ? AND l.kind = 'charge' AND l.at >= ? AND l.at < ? ORDER BY l.entry_id`,
  ledgerCount: 'SELECT count(*) FROM credit_ledger',
  menuRows: 'SELECT operation, credit_cost FROM credit_menu WHERE partner_id = ?',
  upsertMenuRow: `INSERT INTO credit_menu (partner_id, operation, credit_cost) VALUES (?, ?, ?)
       ON CONFLICT (partner_id, operation) DO UPDATE SET credit_cost = excluded.credit_cost`,
  deleteMenuRow: 'DELETE FROM credit_menu WHERE partner_id = ? AND operation = ?',
  /**
   * One hit in a key's current window, only while the window's own count is below the cap: no row back
   * means this window alone is full. Atomic in both stores (the conflict target's row is locked).
   */
  rateHit: `INSERT INTO rate_windows (key_id, window_start, hits) VALUES (?, ?, 1)
       ON CONFLICT (key_id, window_start) DO UPDATE SET hits = rate_windows.hits + 1 WHERE rate_windows.hits < ?
       RETURNING hits`,
  rateWindow: 'SELECT hits FROM rate_windows WHERE key_id = ? AND window_start = ?',
  rateGiveBack: 'UPDATE rate_windows SET hits = hits - 1 WHERE key_id = ? AND window_start = ? AND hits > 0',
  /** Windows older than the previous one count for nothing. */
  ratePrune: 'DELETE FROM rate_windows WHERE window_start < ?',
} as const;
