import { LOAD_SQL } from './load.js';

/** A business's filter columns, as `indexes/businesses.ts` reads them (its `Row`). */
const BUSINESS_FILTER_COLUMNS = `rowid, name, name_key, country_code, region_country_code, city_name, city_region,
       city_region_country, size, revenue, age, locations, naics, is_public, has_website, facets, other_names`;
/** A prospect's filter columns, as `indexes/prospects.ts` reads them (its `Row`). */
const PROSPECT_FILTER_COLUMNS = `rowid, business_rowid, country_code, region_country_code, job_title, job_level,
       job_department, total_experience_months, current_role_months, has_email, has_phone`;
/**
 * The same columns as one text per row (`prospectBlock`): a text column as 'v' and its value, an integer
 * as written, null as nothing, separated by U+001F (`indexes/prospect-rows.ts` reads them back).
 */
const PROSPECT_FILTER_TEXT = [
  'rowid',
  'business_rowid',
  "'v' || country_code",
  "'v' || region_country_code",
  "'v' || job_title",
  "'v' || job_level",
  "'v' || job_department",
  'total_experience_months',
  'current_role_months',
  'has_email',
  'has_phone',
]
  .map((c) => `coalesce(${c}, '')`)
  .join(' || char(31) || ');
/** The columns a prospect's filters read from its employer (`Employer` in `indexes/prospects.ts`). */
const EMPLOYER_COLUMNS = `rowid, name, name_key, size, revenue, age, locations, country_code, region_country_code,
       city_region_country, city_name, naics, is_public, has_website`;

/**
 * The scans the in-memory indexes are built from (`indexes/`), once per data version. Their column
 * lists are the builders' `Row` types: a column added here is read there. Prepared where they run (a
 * build runs once per data version, so there is nothing to keep between runs).
 */
export const SCAN_SQL = {
  maxBusinessRowid: 'SELECT coalesce(max(rowid), 0) AS m FROM businesses',
  maxProspectRowid: 'SELECT coalesce(max(rowid), 0) AS m FROM prospects',
  /** `indexes/businesses.ts`: the filter columns and the slim `facets` blob, in rowid order. */
  businesses: `SELECT ${BUSINESS_FILTER_COLUMNS} FROM businesses ORDER BY rowid`,
  /** `indexes/businesses.ts`: one business's filter columns (the few rows a delta changed, by rowid). */
  businessRow: `SELECT ${BUSINESS_FILTER_COLUMNS} FROM businesses WHERE rowid = ?`,
  /** `indexes/business-patch.ts`: the slim `facets` blob of one business. */
  businessFacets: 'SELECT facets FROM businesses WHERE rowid = ?',
  /**
   * `indexes/prospect-rows.ts`: the filter columns of a rowid range as one text (`PROSPECT_FILTER_TEXT`
   * per row, rows separated by U+001F too), and its row count; `prospectRange` the same rows as arrays.
   * Their employers' columns are read apart (`employers`) and joined in the builder: a `LEFT JOIN
   * businesses` here looked up each prospect's business in its B-tree, and at 1M prospects that scan
   * took 7.9–13.6 s against 2.8–3.2 s for the prospects alone.
   */
  prospectBlock: `SELECT count(*), group_concat(${PROSPECT_FILTER_TEXT}, char(31))
       FROM prospects WHERE rowid BETWEEN ? AND ?`,
  prospectRange: `SELECT ${PROSPECT_FILTER_COLUMNS} FROM prospects WHERE rowid BETWEEN ? AND ? ORDER BY rowid`,
  /**
   * `indexes/prospect-patch.ts`: one prospect's filter columns and its `facets` blob (the few rows a
   * delta changed, read by rowid).
   */
  prospectRow: `SELECT ${PROSPECT_FILTER_COLUMNS}, facets FROM prospects WHERE rowid = ?`,
  /**
   * `indexes/prospects.ts`: the `facets` blobs of a rowid range, one after another, and their lengths
   * (-1: none), as one row (see `EXPORT_SQL` for the aggregate's order and bytes). Stepping them with
   * the other columns made a Buffer per prospect: at 1M prospects the scan took 5.2–6.6 s with them,
   * 4.0–4.3 s with them read this way, 4,096 rowids at a time.
   */
  prospectFacets: `SELECT CAST(group_concat(facets, '') AS BLOB), group_concat(coalesce(length(facets), -1))
       FROM prospects WHERE rowid BETWEEN ? AND ?`,
  /** `indexes/prospects.ts`: the columns a prospect's filters read from its employer, in rowid order. */
  employers: `SELECT ${EMPLOYER_COLUMNS} FROM businesses ORDER BY rowid`,
  /** `indexes/prospect-patch.ts`: one employer's columns and its other names, by rowid. */
  employer: `SELECT ${EMPLOYER_COLUMNS} FROM businesses WHERE rowid = ?`,
  otherNamesOf: 'SELECT other_names FROM businesses WHERE rowid = ?',
  /** `indexes/events.ts`: business events, newest first. */
  businessEvents: `SELECT e.event_name AS name, e.event_time AS time, b.rowid AS row FROM events e
         JOIN businesses b ON b.business_id = e.entity_id
         WHERE e.entity_type = 'business' ORDER BY e.event_time DESC, b.rowid`,
  /** `indexes/match/businesses.ts`: the match keys and names of every business, in rowid order. */
  matchBusinesses: `SELECT rowid, name, domain, host, linkedin_slug, country_code
       FROM businesses ORDER BY rowid`,
  /** `indexes/match/businesses.ts`: the id of a matched business, and the business of an id. */
  businessId: 'SELECT business_id FROM businesses WHERE rowid = ?',
  businessRowid: 'SELECT rowid FROM businesses WHERE business_id = ?',
  /** `indexes/match/prospects.ts`: names and employers of every prospect, in rowid order. */
  matchProspects: 'SELECT rowid, business_rowid, full_name FROM prospects ORDER BY rowid',
  /** `indexes/match/prospects.ts`: the employer and name of one prospect (a row a delta changed). */
  matchProspect: 'SELECT business_rowid, full_name FROM prospects WHERE rowid = ?',
  /** `indexes/match/prospects.ts`: the id of a matched prospect. */
  prospectId: 'SELECT prospect_id FROM prospects WHERE rowid = ?',
} as const;

/**
 * `indexes/match/other-names.ts`, `indexes/prospects.ts`, `core/autocomplete.ts`: the businesses that
 * have other names, with their name key.
 */
export const OTHER_NAMES_SCAN =
  'SELECT rowid, other_names, name_key FROM businesses WHERE other_names IS NOT NULL ORDER BY rowid';

/**
 * `core/export.ts`: the stored records of a step of an export, one aggregate row per statement: every
 * record's `wire` bytes one after another (`group_concat` of the blobs, cast back: a UTF-8 database
 * copies a blob's bytes unchanged), their lengths and, unless the step is a whole rowid range, their
 * rowids as comma-separated text (and for businesses their ids, as a JSON array: an id may hold any
 * character). Measured at 200k full
 * prospect records: 0.8-1.1 µs of CPU per record, against 2.9-3.5 µs to step one row per record with
 * `iterate` (each row a JS array and a Buffer). The aggregates follow the scan's own order, ascending
 * rowid for a rowid range (an `ORDER BY` inside the aggregate sorts in a temporary B-tree, 3× dearer);
 * a `rowid IN (…)` list comes back with its rowids, so the reader places each record itself.
 * `all`: a whole range, no rowids; `range`: a range with gaps; `list`: `n` rowids.
 */
export function EXPORT_SQL(
  entity: 'prospects' | 'businesses',
  n: number,
): { all: string; range: string; list: string } {
  const wire = `CAST(group_concat(wire, '') AS BLOB), group_concat(length(wire), ',')`;
  const ids = `, group_concat(rowid, ',')${entity === 'businesses' ? ', json_group_array(business_id)' : ''}`;
  return {
    all: `SELECT ${wire}${entity === 'businesses' ? ids : ''} FROM ${entity} WHERE rowid BETWEEN ? AND ?`,
    range: `SELECT ${wire}${ids} FROM ${entity} WHERE rowid BETWEEN ? AND ?`,
    list: `SELECT ${wire}${ids} FROM ${entity} WHERE rowid IN (${Array(n).fill('?').join(', ')})`,
  };
}

/**
 * The prospects as one wide table, each row with its employer's columns under the names schema 6 kept
 * on the prospect (`company_size`, …, the loader's own aliases, `LOAD_SQL.companies`): a FROM source for
 * the benches' plain-SQLite baselines, which query or copy those columns (schema 7 joins them from the
 * business by `business_rowid`). SQLite flattens it into a rowid lookup per prospect.
 */
export const PROSPECTS_WITH_EMPLOYER = `(SELECT p.rowid AS rowid, p.*, c.* FROM prospects p
       LEFT JOIN (${LOAD_SQL.companies}) c ON c.business_rowid = p.business_rowid)`;
