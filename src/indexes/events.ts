/**
 * Business events by type, newest first, with the business rowid each one is about: the `events`
 * filter walks one list per type until it passes the `last_occurrence` cut-off.
 */
import { kind, type Context } from '../runtime/context.js';
import { Bitset } from './bitset.js';
import { SCAN_SQL } from '../store/sql/scans.js';

export interface EventTypeList {
  /** Event times (ms since the epoch), descending. */
  readonly times: Float64Array;
  readonly rows: Uint32Array;
}

export interface BusinessEventIndex {
  readonly byType: ReadonlyMap<string, EventTypeList>;
}

export function businessEventIndex(engine: Context): BusinessEventIndex {
  return engine.indexes.get(BUSINESS_EVENTS);
}

const BUSINESS_EVENTS = kind('search.businessEvents', (e): BusinessEventIndex => {
  const rows = e.db.prepare(SCAN_SQL.businessEvents).all() as { name: string; time: number; row: number }[];
  const lists = new Map<string, { times: number[]; rows: number[] }>();
  for (const r of rows) {
    let l = lists.get(r.name);
    if (!l) lists.set(r.name, (l = { times: [], rows: [] }));
    l.times.push(r.time);
    l.rows.push(r.row);
  }
  const byType = new Map<string, EventTypeList>();
  for (const [name, l] of lists) {
    byType.set(name, { times: Float64Array.from(l.times), rows: Uint32Array.from(l.rows) });
  }
  return { byType };
});

/** Businesses with an event of one of `types` at or after `since` (ms). */
export function businessesWithEvents(
  index: BusinessEventIndex,
  types: readonly string[],
  since: number,
  size: number,
): Bitset {
  const out = new Bitset(size);
  for (const t of new Set(types)) {
    const l = index.byType.get(t);
    if (!l) continue;
    for (let i = 0; i < l.times.length && l.times[i]! >= since; i++) {
      const r = l.rows[i]!;
      if (r < size) out.add(r);
    }
  }
  return out;
}
