/**
 * The account store: row types and the append-only credit ledger (the statements are in
 * `store/sql/accounts.ts`). Every ledger row holds the running balance after it, so the balance is one indexed read and
 * the CHECK (balance >= 0) makes an overdraft impossible at the storage level.
 */
import type { Db } from '../store/open.js';
import { accountStatements } from '../store/sql/accounts.js';

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

// The statements are in `store/sql/accounts.ts`; re-exported for the account modules.
export { accountStatements, type AccountStatements } from '../store/sql/accounts.js';

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
