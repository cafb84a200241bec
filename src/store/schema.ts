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
 * Files older than 6 are refused on open with the fix (`prospectdb migrate` or a reload), see `migrate.ts`.
 */
export const SCHEMA_VERSION = 7;

/** The prospects table (`migrate.ts` rebuilds a schema-6 table into it). */
export const PROSPECTS_TABLE = `CREATE TABLE IF NOT EXISTS prospects (
  rowid INTEGER PRIMARY KEY,
  prospect_id TEXT NOT NULL UNIQUE,
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

const ENTITIES = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

CREATE TABLE IF NOT EXISTS businesses (
  rowid INTEGER PRIMARY KEY,
  business_id TEXT NOT NULL UNIQUE,
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
) STRICT;

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

/**
 * Secondary indexes on the entity tables by table, dropped before a bulk load of that table and built
 * after it (cheaper than maintaining them during inserts). A stream only rebuilds its own tables'
 * indexes: loading events no longer rebuilds the prospect and business indexes. Only what a statement
 * reads through: filters, stats, match and autocomplete read the in-memory indexes, and ids go through
 * the tables' UNIQUE indexes; `prospects_business` serves a delta's employer changes (`sql/delta.ts`).
 */
export const TABLE_INDEXES: Readonly<Record<'businesses' | 'prospects', readonly string[]>> = {
  businesses: [],
  prospects: ['prospects_business ON prospects (business_rowid)'],
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

const indexName = (def: string) => def.slice(0, def.indexOf(' '));
export const createIndexes = (table: keyof typeof TABLE_INDEXES) =>
  TABLE_INDEXES[table].map((d) => `CREATE INDEX IF NOT EXISTS ${d};`).join('\n');
export const dropIndexes = (table: keyof typeof TABLE_INDEXES) =>
  TABLE_INDEXES[table].map((d) => `DROP INDEX IF EXISTS ${indexName(d)};`).join('\n');

export const ENTITY_INDEXES = [
  ...RETIRED_INDEXES.map((name) => `DROP INDEX IF EXISTS ${name};`),
  createIndexes('businesses'),
  createIndexes('prospects'),
].join('\n');

/** The snapshot's DDL, run in order on open (idempotent). */
export const SCHEMA: readonly string[] = [ENTITIES, ENTITY_INDEXES];
