/** Statements of the `meta` table (schema and data versions, snapshot id, secrets) and the row counts. */
import type { Db } from '../db.js';
import { preparedOnce, type Statements } from '../statements.js';

/**
 * Prepared once per connection: the index owner reads `data_version` on every access, and preparing the
 * statement each time cost more than running it.
 */
export const metaStatements: (db: Db) => Statements<'get' | 'set'> = preparedOnce((db: Db) => ({
  get: db.prepare('SELECT value FROM meta WHERE key = ?').pluck(),
  set: db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ),
}));

/** Rows per entity table (`engine.info()`). */
export const countStatements: (db: Db) => Statements<'businesses' | 'prospects' | 'events'> = preparedOnce(
  (db: Db) => ({
    businesses: db.prepare('SELECT count(*) FROM businesses').pluck(),
    prospects: db.prepare('SELECT count(*) FROM prospects').pluck(),
    events: db.prepare('SELECT count(*) FROM events').pluck(),
  }),
);

/** `cli/commands/demo.ts`: two businesses with a domain and the commonest country, for the printed curl examples. */
export const DEMO_SQL = {
  sampleBusinesses: 'SELECT name, domain FROM businesses WHERE domain IS NOT NULL ORDER BY rowid LIMIT 2',
  commonestCountry:
    'SELECT country_code FROM businesses GROUP BY country_code ORDER BY count(*) DESC LIMIT 1',
} as const;

/**
 * Whether a snapshot file holds the state's tables (`accounts` is the first area's first table): a
 * single-file database made before the state had a store of its own.
 */
export function hasStateTables(db: Db): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'accounts'").get() !== undefined
  );
}
