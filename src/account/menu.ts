/**
 * The charging menu: operation name → credits per unit. Defaults below; an engine option
 * (`creditMenu`) overrides them for every partner, rows of `credit_menu` override them per partner.
 * Served by `GET /v1/credits/menu/{partner_id}`.
 */
import { kind, type Context } from '../runtime/context.js';
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

/**
 * How long a partner's menu is reused before it is read again, ms. Every charging request needs it,
 * and on a shared PostgreSQL state each read is a round trip; a change made through this engine is
 * seen at once, one made by another process within this time.
 */
export const MENU_TTL_MS = 5_000;

/** Partner → its menu and when it was read (wall-clock ms), per engine. */
const MENUS = kind('account.menus', () => new Map<string, { menu: ChargingMenu; readAt: number }>());

/** The menu that applies to a partner (defaults ← engine option ← per-partner rows). */
export async function menuFor(engine: Context, partnerId: string): Promise<ChargingMenu> {
  const cache = engine.services.get(MENUS);
  const hit = cache.get(partnerId);
  if (hit && performance.now() - hit.readAt < MENU_TTL_MS) return hit.menu;
  const configured = engine.settings.creditMenu;
  const menu: ChargingMenu = { ...DEFAULT_MENU, ...configured };
  const rows = await engine.state.all<{ operation: string; credit_cost: number }>(SQL.menuRows, [partnerId]);
  for (const row of rows) {
    menu[row.operation] = row.credit_cost;
  }
  cache.set(partnerId, { menu, readAt: performance.now() });
  return menu;
}

/** Sets one partner's cost of an operation (`null` restores the default). */
export async function setMenuCost(
  engine: Context,
  partnerId: string,
  operation: string,
  cost: number | null,
): Promise<void> {
  if (cost !== null && (!Number.isSafeInteger(cost) || cost < 0))
    throw new EngineError('BAD_REQUEST', 'credit cost must be an integer ≥ 0');
  if (cost === null) await engine.state.run(SQL.deleteMenuRow, [partnerId, operation]);
  else await engine.state.run(SQL.upsertMenuRow, [partnerId, operation, cost]);
  // After the write: a read racing it may have kept the old menu.
  engine.services.get(MENUS).delete(partnerId);
}

/** Credits for `units` of `operation` under `menu`; unknown operations are a programming error. */
export function costOf(menu: ChargingMenu, operation: string, units: number): number {
  const unit = menu[operation];
  if (unit === undefined) throw new EngineError('INTERNAL', `unknown charging operation '${operation}'`);
  if (!Number.isSafeInteger(units) || units < 0)
    throw new EngineError('INTERNAL', `invalid charge units ${units}`);
  return unit * units;
}
