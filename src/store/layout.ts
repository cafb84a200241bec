/**
 * Which layout a database file's entity tables have, and the refusal of an old one: what opening a
 * file checks (`open.ts`), apart from the migration itself (`migrate.ts`), which validates and
 * re-encodes every record and so loads the record schemas.
 */
import { EngineError } from '../errors.js';
import type { Db } from './db.js';
import { SCHEMA_VERSION } from './schema.js';

export const ENTITY_TABLES = ['businesses', 'prospects'] as const;

export const columnsOf = (db: Db, table: string) =>
  new Set((db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name));

/** Whether `db` holds entity tables in a layout older than schema 5 (a `doc` column). */
export function hasDocs(db: Db): boolean {
  return ENTITY_TABLES.some((t) => columnsOf(db, t).has('doc'));
}

/** Whether `db` holds a businesses table without the `other_names` column (schema 5 and older). */
function lacksOtherNames(db: Db): boolean {
  const columns = columnsOf(db, 'businesses');
  return columns.size > 0 && !columns.has('other_names');
}

/** Whether `db` holds entity tables in a layout older than the current one. */
export function hasOldLayout(db: Db): boolean {
  return hasDocs(db) || lacksOtherNames(db);
}

/** The refusal of a file in an older layout: which file, its version, and the two fixes. */
export function layoutError(path: string, version: string | undefined): EngineError {
  return new EngineError(
    'SCHEMA_OUTDATED',
    `${path}: written with schema version ${version ?? 'unknown'}, this prospectdb reads version ` +
      `${SCHEMA_VERSION} (each record stored once, compact, with other names). Rewrite it with ` +
      `\`prospectdb migrate --db ${path}\` (in place, or --out NEW_FILE), or load its snapshot again ` +
      'with `prospectdb load`.',
    { detail: { path, version: version ?? null, expected: SCHEMA_VERSION } },
  );
}
