/**
 * The account store: row types, the balance and the append-only credit ledger (the statements are in
 * `store/sql/accounts.ts`, run through `ctx.state`). The balance lives on the account row and moves
 * only by one guarded UPDATE (`debit`: `… WHERE balance >= ? RETURNING balance`), which is what keeps
 * concurrent charges from any number of processes exact: PostgreSQL locks the row until the
 * transaction ends, SQLite runs it under the write lock. Every ledger row records the running balance
 * after it, so the ledger alone still tells the whole history.
 */
import { EngineError } from '../errors.js';
import type { Param, StateDb } from '../state/db.js';
import { ACCOUNT_SQL as SQL } from '../store/sql/accounts.js';

export interface AccountRow {
  account_id: string;
  partner_id: string;
  name: string;
  account_type: 'trial' | 'paid';
  entitlements: string;
  created_at: number;
  balance: number;
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
  /** Positive for a grant, negative for a charge. */
  delta: number;
  operation?: string | null;
  units?: number | null;
  endpoint?: string | null;
  key_id?: string | null;
  correlation_id?: string | null;
}

/** Current balance (0 for an unknown account). */
export async function ledgerBalance(state: StateDb, accountId: string): Promise<number> {
  return (await state.value<number>(SQL.balance, [accountId])) ?? 0;
}

/**
 * Moves an account's balance by the sum of `entries` (all of one account) and appends them to the
 * ledger, each with the running balance after it. A debit the balance does not cover changes nothing
 * and throws INSUFFICIENT_CREDITS; an unknown account throws NOT_FOUND. Call inside a transaction of
 * `state` (the balance row and the ledger rows commit together); one debit on PostgreSQL is a single
 * statement, atomic by itself, so it needs none. Returns the new balance.
 */
export async function postEntries(state: StateDb, entries: readonly LedgerEntry[]): Promise<number> {
  const first = entries[0];
  if (!first) throw new EngineError('INTERNAL', 'no ledger entries');
  const accountId = first.account_id;
  const delta = entries.reduce((n, e) => n + e.delta, 0);
  let after: number | undefined;
  if (state.dialect === 'postgres' && entries.length === 1 && delta < 0) {
    after = await state.value<number>(SQL.debitWithEntry, [
      -delta,
      accountId,
      -delta,
      ...entryParams(first).slice(0, 4),
      ...entryParams(first).slice(5),
    ]);
    if (after === undefined) await refuseDebit(state, accountId);
    return after!;
  }
  if (delta < 0) {
    after = await state.value<number>(SQL.debit, [-delta, accountId, -delta]);
    if (after === undefined) await refuseDebit(state, accountId);
  } else {
    after = await state.value<number>(SQL.credit, [delta, accountId]);
    if (after === undefined) throw new EngineError('NOT_FOUND', `account '${accountId}' not found`);
  }
  let running = after! - delta;
  for (const e of entries) {
    running += e.delta;
    const params = entryParams(e);
    params[4] = running;
    await state.run(SQL.appendEntry, params);
  }
  return after!;
}

/** A ledger row's values in `appendEntry` order (the running balance, 5th, filled by the caller). */
function entryParams(e: LedgerEntry): Param[] {
  return [
    e.account_id,
    e.at,
    e.kind,
    e.delta,
    null,
    e.operation ?? null,
    e.units ?? null,
    e.endpoint ?? null,
    e.key_id ?? null,
    e.correlation_id ?? null,
  ];
}

/** Why a debit changed nothing: no such account, or a balance that does not cover it. */
async function refuseDebit(state: StateDb, accountId: string): Promise<never> {
  if ((await state.value(SQL.balance, [accountId])) === undefined)
    throw new EngineError('NOT_FOUND', `account '${accountId}' not found`);
  throw new EngineError('INSUFFICIENT_CREDITS');
}
