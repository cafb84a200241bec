/**
 * Statements of event ingest on the snapshot (`ctx.db`, better-sqlite3): the events table. The
 * enrollments an event finds and the deliveries it queues are state (`sql/webhooks.ts`).
 */
import type { Db } from '../db.js';
import { preparedOnce, type Statements } from '../statements.js';

export type EventStatements = Statements<'insert' | 'known' | 'byEntity'>;

/** The event ingest statements of a database, prepared once. */
export const eventStatements = preparedOnce((db: Db): EventStatements => ({
  insert: db.prepare(`INSERT OR IGNORE INTO events (event_id, event_name, entity_type, entity_id, event_time,
      ingested_at, doc) VALUES (?, ?, ?, ?, ?, ?, ?)`),
  known: db.prepare('SELECT 1 FROM events WHERE event_id = ?').pluck(),
  // One statement per id keeps the plan on the (entity_id, event_time) index.
  byEntity: db.prepare(`SELECT event_id, event_name, entity_type, entity_id, event_time, doc FROM events
      WHERE entity_id = ? AND entity_type = ? AND event_time >= ? AND event_time <= ?`),
}));
