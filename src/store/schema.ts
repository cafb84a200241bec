/**
 * The SQLite schema. Entity tables keep each record once, as `wire` (the pre-built fetch record, what a
 * fetch reads) plus `rest` (the record's other fields, compressed; `decodeDoc` in `codec.ts` joins the
 * two into the full record for enrichments), and what reads need without decoding it: the normalised
 * columns that filters, stats, match and autocomplete read and `facets` (the multi-valued fields the
 * in-memory indexes read), see `wire.ts`. The dense `rowid` is the id inside
 * every in-memory index. This is the snapshot's file; the state that requests change (accounts, credits,
 * webhooks, jobs, OAuth) is a store of its own (`src/state/`), its DDL in `sql/<area>.ts` beside that
 * area's statements.
 */

/**
 * 3: `wire`, `facets`, `website_url`, `linkedin_profile` before `doc`.
 * 4: an entity `doc` may be the snapshot line's JSON text instead of MessagePack.
 * 5: no `doc`: `wire` is a value array (`WIRE_KEYS`) and `rest` holds the other fields (`codec.ts`).
 * 6: businesses' `other_names` (a validated field, the last value of a business `wire`, and a column of
 *    the names for the indexes).
 * 7: prospects keep no copy of their employer's columns (`company_name` … `company_has_website`): reads
 *    join the business by `business_rowid`. A file of schema 6 is read as it is (those columns ignored,
 *    left empty by later loads); `prospectdb migrate` drops them.
 *    Later in 7, the same layout otherwise: the ids' unique indexes are named (`businesses_id`,
 *    `prospects_id`) instead of a `UNIQUE` column constraint, so a bulk load builds them once, sorted,
 *    after its rows. A table with the constraint is read and written as it is; its next load recreates it
 *    (see {@link TABLE_INDEXES}).
 * Files older than 6 are refused on open with the fix (`prospectdb migrate` or a reload), see `migrate.ts`.
 */
export const SCHEMA_VERSION = 7;

/** The prospects table (`migrate.ts` rebuilds a schema-6 table into it). */
export const PROSPECTS_TABLE = `CREATE TABLE IF NOT EXISTS prospects (
  rowid INTEGER PRIMARY KEY,
  prospect_id TEXT NOT NULL,
  business_id TEXT,
  business_rowid INTEGER,
  full_name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  linkedin_slug TEXT,
  country_code TEXT,
  region_country_code TEXT,
  job_title TEXT NOT NULL,
  job_level TEXT,
  job_department TEXT,
  total_experience_months INTEGER,
  current_role_months INTEGER,
  has_email INTEGER NOT NULL,
  has_phone INTEGER NOT NULL,
  facets BLOB,
  wire BLOB,
  rest BLOB NOT NULL -- last: see businesses.rest
) STRICT;`;

/** The businesses table. */
export const BUSINESSES_TABLE = `CREATE TABLE IF NOT EXISTS businesses (
  rowid INTEGER PRIMARY KEY,
  business_id TEXT NOT NULL,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  domain TEXT,
  host TEXT,
  linkedin_slug TEXT,
  country_code TEXT,
  region_country_code TEXT,
  city_name TEXT,
  city_region TEXT,
  city_region_country TEXT,
  size TEXT,
  revenue TEXT,
  founded_year INTEGER,
  age TEXT,
  number_of_locations INTEGER,
  locations TEXT,
  naics TEXT,
  is_public INTEGER NOT NULL,
  has_website INTEGER NOT NULL,
  website_url TEXT,
  linkedin_profile TEXT,
  facets BLOB,
  wire BLOB,
  -- JSON array of the other names (null when none): what the match, filter and completion indexes read.
  other_names TEXT,
  -- Last on purpose: a large rest spills to overflow pages, and SQLite reads a row's columns in order,
  -- so every column placed after it costs a walk of that overflow chain.
  rest BLOB NOT NULL
) STRICT;`;

const ENTITIES = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
${BUSINESSES_TABLE}
${PROSPECTS_TABLE}
CREATE TABLE IF NOT EXISTS events (
  rowid INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL UNIQUE,
  event_name TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  event_time INTEGER NOT NULL,
  ingested_at INTEGER NOT NULL,
  doc BLOB NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS events_entity ON events (entity_id, event_time);
`;

/** An index on an entity table. */
interface TableIndex {
  readonly name: string;
  /** `table (columns)` */
  readonly on: string;
  /** An id's index: unique, and already there as a column constraint in older tables. */
  readonly id?: true;
}

/**
 * Secondary indexes on the entity tables by table, dropped before a bulk load of that table and built
 * after it: building an index from the loaded rows sorts once, where keeping it through the inserts
 * puts every random id in its place in a B-tree that outgrows the page cache. 3M rows of random ids:
 * 40.6 s with the ids' index kept, 30.5 s with it built after, under the 256 MiB cache of `open.ts`
 * (68.6 s against 26.8 s under 16 MiB). A stream only rebuilds its own tables' indexes: loading events
 * no longer rebuilds the prospect and business indexes. Only what a statement reads through: filters,
 * stats, match and autocomplete read the in-memory indexes, ids go through their unique indexes (the
 * load finds duplicate ids itself, with their lines), and `prospects_business` serves a delta's
 * employer changes (`sql/delta.ts`).
 */
export const TABLE_INDEXES: Readonly<Record<'businesses' | 'prospects', readonly TableIndex[]>> = {
  businesses: [{ name: 'businesses_id', on: 'businesses (business_id)', id: true }],
  prospects: [
    { name: 'prospects_id', on: 'prospects (prospect_id)', id: true },
    { name: 'prospects_business', on: 'prospects (business_rowid)' },
  ],
};

/**
 * Indexes earlier versions made that no statement reads (name key, domain and country of both entity
 * tables: 1.6% of a file loaded with 100k prospects): dropped by a writable open, so a reload or delta neither keeps nor
 * maintains them.
 */
const RETIRED_INDEXES = [
  'businesses_name_key',
  'businesses_domain',
  'businesses_country',
  'prospects_name_key',
  'prospects_country',
];

type EntityTable = keyof typeof TABLE_INDEXES;

/**
 * Creates `table`'s indexes. `inlineId`: the table still has its id's `UNIQUE` constraint (a file
 * written before the ids' indexes were named), whose index serves as the id's.
 */
export const createIndexes = (table: EntityTable, inlineId = false) =>
  TABLE_INDEXES[table]
    .filter((d) => !(inlineId && d.id))
    .map((d) => `CREATE ${d.id ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${d.name} ON ${d.on};`)
    .join('\n');
export const dropIndexes = (table: EntityTable) =>
  TABLE_INDEXES[table].map((d) => `DROP INDEX IF EXISTS ${d.name};`).join('\n');

/** A row when `table` (bound) has its id's `UNIQUE` column constraint: SQLite's index for it. */
export const INLINE_ID_SQL = `SELECT 1 FROM sqlite_master WHERE type = 'index' AND tbl_name = ?
  AND name LIKE 'sqlite_autoindex_%'`;

/** `table` recreated empty in the current layout (a load replaces its rows anyway). */
export const recreateTableSql = (table: EntityTable) =>
  `DROP TABLE ${table};\n${table === 'businesses' ? BUSINESSES_TABLE : PROSPECTS_TABLE}`;

const RETIRED = RETIRED_INDEXES.map((name) => `DROP INDEX IF EXISTS ${name};`).join('\n');

/**
 * The snapshot's DDL, run in order on open (idempotent); then each entity table's indexes
 * ({@link createIndexes}).
 */
export const SCHEMA: readonly string[] = [ENTITIES, RETIRED];
export const ENTITY_TABLES: readonly EntityTable[] = ['businesses', 'prospects'];
