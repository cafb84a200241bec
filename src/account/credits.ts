/**
 * Charging: a request queues `(operation, units)` charges; they are priced with the partner's menu and
 * debited all at once, inside the state transaction of the operation: one guarded UPDATE of the
 * balance, then one ledger row per operation. A balance that does not cover the whole sum debits
 * nothing and fails the request (403, insufficient credits).
 */
import type { Context } from '../runtime/context.js';
import type { Account } from './types.js';
import { postEntries, type LedgerEntry } from './ledger.js';
import { costOf, menuFor } from './menu.js';

export interface PendingCharge {
  operation: string;
  units: number;
}

export interface ChargeScope {
  account: Account;
  keyId: string | null;
  /** Route template, e.g. `/v1/prospects`; what `endpoints` aggregation groups by. */
  endpoint: string;
  correlationId: string;
}

/** What a request was billed: `credit_usage` of the response. */
export interface ChargeOutcome {
  total_credits: number;
  total_results: number;
}

/**
 * Debits the queued charges. Call inside a transaction of `ctx.state` (the facade's
 * `ctx.transaction`) so the debit commits with the operation's writes; throws `INSUFFICIENT_CREDITS`
 * and writes nothing when the balance is short (the caller's transaction then rolls back).
 */
export async function applyCharges(
  engine: Context,
  scope: ChargeScope,
  charges: readonly PendingCharge[],
): Promise<ChargeOutcome> {
  if (charges.length === 0) return { total_credits: 0, total_results: 0 };
  const menu = await menuFor(engine, scope.account.partner_id);
  const byOperation = new Map<string, { units: number; credits: number }>();
  let total = 0;
  let units = 0;
  for (const c of charges) {
    const credits = costOf(menu, c.operation, c.units);
    const entry = byOperation.get(c.operation) ?? { units: 0, credits: 0 };
    entry.units += c.units;
    entry.credits += credits;
    byOperation.set(c.operation, entry);
    total += credits;
    units += c.units;
  }
  if (total === 0) return { total_credits: 0, total_results: units };
  const at = engine.now();
  const entries: LedgerEntry[] = [];
  for (const [operation, e] of byOperation) {
    if (e.credits === 0) continue;
    entries.push({
      account_id: scope.account.account_id,
      at,
      kind: 'charge',
      delta: -e.credits,
      operation,
      units: e.units,
      endpoint: scope.endpoint,
      key_id: scope.keyId,
      correlation_id: scope.correlationId,
    });
  }
  // One entry on PostgreSQL is one atomic statement (`postEntries`); more take a transaction.
  if (engine.state.dialect === 'postgres' && entries.length === 1) await postEntries(engine.state, entries);
  else await engine.state.transaction(() => postEntries(engine.state, entries));
  return { total_credits: total, total_results: units };
}
