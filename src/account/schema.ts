/**
 * DDL of the account state: tenants, hashed API keys, the append-only credit ledger and per-partner
 * charging-menu overrides. The ledger row carries the running balance, and a CHECK keeps it ≥ 0, so
 * no write path can ever overdraw an account even if a caller skips the balance check.
 */
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
