/**
 * Stored rows → wire records (docs/spec/api-reference.md §4.4 business, §5.3 prospect), in `full` or
 * `preview` mode. The loader stores each entity's `full` record pre-built (`wire` column, see `store/wire.ts`
 * for the field readings); a page is one indexed read and a small MessagePack decode per row, and `preview`
 * picks its keys from it. Business `events` = distinct names of the business's events in the 90 days before
 * the engine's clock, newest first (they depend on the clock, so they are read per request).
 */
import type { Statement } from 'better-sqlite3';
import type { Context } from '../runtime/context.js';
import {
  BUSINESS_PREVIEW_KEYS,
  pick,
  PROSPECT_PREVIEW_KEYS,
  unpackWire,
  type FetchMode,
  type WireStream,
} from '../store/wire.js';
import { RECORD_BATCH, recordStatements } from '../store/sql/search.js';

export { businessRecord, professionalEmailHash, prospectRecord, type FetchMode } from '../store/wire.js';

const DAY_MS = 86_400_000;
export const RECENT_EVENT_DAYS = 90;

/** Records read per statement (see `store/sql/search.ts`). */
const BATCH = RECORD_BATCH;

const statements = (engine: Context) => recordStatements(engine.db);

/** The stored fetch records of `rows`, decoded, in the given order (rowid 0 pads a short batch: none has it). */
function storedRecords(
  stream: WireStream,
  read: Statement,
  rows: readonly number[],
): Record<string, unknown>[] {
  const byRow = new Map<number, Buffer>();
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    while (batch.length < BATCH) batch.push(0);
    for (const [rowid, wire] of read.all(batch) as [number, Buffer][]) byRow.set(rowid, wire);
  }
  return rows.map((rowid) => unpackWire(stream, byRow.get(rowid)!));
}

/** Wire records of prospect rowids, in the given order. */
export function prospectRecords(engine: Context, rows: readonly number[], mode: FetchMode) {
  const full = storedRecords('prospects', statements(engine).prospects, rows);
  return mode === 'full' ? full : full.map((r) => pick(r, PROSPECT_PREVIEW_KEYS));
}

/** Wire records of business rowids, in the given order. */
export function businessRecords(engine: Context, rows: readonly number[], mode: FetchMode) {
  const full = storedRecords('businesses', statements(engine).businesses, rows);
  if (mode === 'preview') return full.map((r) => pick(r, BUSINESS_PREVIEW_KEYS));
  // `events` keeps its place in the stored record; only its value is per request.
  for (const r of full) r.events = recentBusinessEvents(engine, r.business_id as string);
  return full;
}

/** Distinct names of a business's events in the 90 days before the engine's clock, newest first. */
export function recentBusinessEvents(engine: Context, businessId: string): string[] {
  const since = engine.now() - RECENT_EVENT_DAYS * DAY_MS;
  return [...new Set(statements(engine).events.all(businessId, since) as string[])];
}
