/**
 * Stored rows → wire records (api-reference §4.4 business, §5.3 prospect), in `full` or `preview` mode.
 * The loader stores each entity's `full` record pre-built (`wire` column, see `store/wire.ts` for the
 * field readings); a page is one indexed read and a small MessagePack decode per row, and `preview`
 * picks its keys from it. Business `events` = distinct names of the business's events in the 90 days
 * before the engine's clock, newest first (they depend on the clock, so they are read per request).
 */
import type { Engine } from '../engine.js';
import {
  BUSINESS_PREVIEW_KEYS,
  pick,
  PROSPECT_PREVIEW_KEYS,
  wireCodec,
  type FetchMode,
} from '../store/wire.js';

export { businessRecord, professionalEmailHash, prospectRecord, type FetchMode } from '../store/wire.js';

const DAY_MS = 86_400_000;
export const RECENT_EVENT_DAYS = 90;

function statements(engine: Engine) {
  return engine.cached('search.recordStatements', (e) => ({
    prospect: e.db.prepare('SELECT wire FROM prospects WHERE rowid = ?').pluck(),
    business: e.db.prepare('SELECT wire FROM businesses WHERE rowid = ?').pluck(),
    events: e.db
      .prepare(
        `SELECT event_name FROM events WHERE entity_id = ? AND entity_type = 'business' AND event_time >= ?
         ORDER BY event_time DESC, event_name`,
      )
      .pluck(),
  }));
}

/** Wire records of prospect rowids, in the given order. */
export function prospectRecords(engine: Engine, rows: readonly number[], mode: FetchMode) {
  const st = statements(engine);
  return rows.map((rowid) => {
    const full = wireCodec.unpack(st.prospect.get(rowid) as Buffer) as Record<string, unknown>;
    return mode === 'full' ? full : pick(full, PROSPECT_PREVIEW_KEYS);
  });
}

/** Wire records of business rowids, in the given order. */
export function businessRecords(engine: Engine, rows: readonly number[], mode: FetchMode) {
  const st = statements(engine);
  const since = engine.now() - RECENT_EVENT_DAYS * DAY_MS;
  return rows.map((rowid) => {
    const full = wireCodec.unpack(st.business.get(rowid) as Buffer) as Record<string, unknown>;
    if (mode === 'preview') return pick(full, BUSINESS_PREVIEW_KEYS);
    // `events` keeps its place in the stored record; only its value is per request.
    full.events = [...new Set(st.events.all(full.business_id, since) as string[])];
    return full;
  });
}
