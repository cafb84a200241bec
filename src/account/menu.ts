/**
 * The charging menu: operation name → credits per unit. Defaults below; an engine option
 * (`creditMenu`) overrides them for every partner, rows of `credit_menu` override them per partner.
 * Served by `GET /v1/credits/menu/{partner_id}`.
 */
import type { Context } from '../runtime/context.js';
import { EngineError } from '../errors.js';
import { ACCOUNT_SQL as SQL } from '../store/sql/accounts.js';

export const DEFAULT_MENU: Readonly<Record<string, number>> = Object.freeze({
  fetch: 1,
  events: 1,
  enrichment: 1,
  contact_information_email: 2,
  contact_information_phone: 5,
  contact_information_email_phone: 5,
  research: 5,
  match: 0,
  stats: 0,
  autocomplete: 0,
});

export type ChargingMenu = Record<string, number>;

/** The menu that applies to a partner (defaults ← engine option ← per-partner rows). */
export async function menuFor(engine: Context, partnerId: string): Promise<ChargingMenu> {
  const configured = engine.settings.creditMenu;
  const menu: ChargingMenu = { ...DEFAULT_MENU, ...configured };
  const rows = await engine.state.all<{ operation: string; credit_cost: number }>(SQL.menuRows, [partnerId]);
  for (const row of rows) {
    menu[row.operation] = row.credit_cost;
  }
  return menu;
}

/** Sets one partner's cost of an operation (`null` restores the default). */
export async function setMenuCost(
  engine: Context,
  partnerId: string,
  operation: string,
  cost: number | null,
): Promise<void> {
  if (cost === null) {
    await engine.state.run(SQL.deleteMenuRow, [partnerId, operation]);
    return;
  }
  if (!Number.isSafeInteger(cost) || cost < 0)
    throw new EngineError('BAD_REQUEST', 'credit cost must be an integer ≥ 0');
  await engine.state.run(SQL.upsertMenuRow, [partnerId, operation, cost]);
}

/** Credits for `units` of `operation` under `menu`; unknown operations are a programming error. */
export function costOf(menu: ChargingMenu, operation: string, units: number): number {
  const unit = menu[operation];
  if (unit === undefined) throw new EngineError('INTERNAL', `unknown charging operation '${operation}'`);
  if (!Number.isSafeInteger(units) || units < 0)
    throw new EngineError('INTERNAL', `invalid charge units ${units}`);
  return unit * units;
}
