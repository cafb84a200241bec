/**
 * Statements of the entity reads: ids → rowids for filters, stored fetch records by rowid, and one
 * entity's document by id (enrichments).
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from '../open.js';
import { preparedOnce, type Statements } from '../statements.js';

/** Records read per statement: one `rowid IN (…)` read instead of a native call per row. */
export const RECORD_BATCH = 100;
const IN_LIST = `(${Array(RECORD_BATCH).fill('?').join(', ')})`;

export const searchStatements: (db: Db) => Record<'prospectRows' | 'businessRows', Statement> = preparedOnce(
  (db: Db) => ({
    prospectRows: db
      .prepare('SELECT p.rowid FROM json_each(?) j JOIN prospects p ON p.prospect_id = j.value')
      .pluck(),
    businessRows: db
      .prepare('SELECT b.rowid FROM json_each(?) j JOIN businesses b ON b.business_id = j.value')
      .pluck(),
  }),
);

export const recordStatements: (db: Db) => Record<'prospects' | 'businesses' | 'events', Statement> =
  preparedOnce((db: Db) => ({
    prospects: db.prepare(`SELECT rowid, wire FROM prospects WHERE rowid IN ${IN_LIST}`).raw(),
    businesses: db.prepare(`SELECT rowid, wire FROM businesses WHERE rowid IN ${IN_LIST}`).raw(),
    events: db
      .prepare(
        `SELECT event_name FROM events WHERE entity_id = ? AND entity_type = 'business' AND event_time >= ?
       ORDER BY event_time DESC, event_name`,
      )
      .pluck(),
  }));

/** One entity's stored document by id (prospects with their employer's company columns). */
export const entityStatements: (db: Db) => Statements<'business' | 'prospect'> = preparedOnce((db: Db) => ({
  business: db.prepare('SELECT wire, rest FROM businesses WHERE business_id = ?'),
  prospect: db.prepare(
    `SELECT p.wire, p.rest, b.name AS company_name, b.website_url AS company_website,
       b.linkedin_profile AS company_linkedin
       FROM prospects p LEFT JOIN businesses b ON b.rowid = p.business_rowid WHERE p.prospect_id = ?`,
  ),
}));
