/**
 * The load's statements (`store/load*.ts`): multi-row inserts per stream, clearing a
 * stream, and the company columns prospects inherit from their employer. Prepared by the load once per
 * stream (a load runs once per data version, so there is nothing to keep between runs).
 */
export const LOAD_SQL = {
  /** Narrow columns only: decoding every business `doc` just for two URLs was the costliest start of a prospects stream. */
  companies: `SELECT business_id, rowid AS business_rowid, name AS company_name,
  website_url AS company_website, linkedin_profile AS company_linkedin, size AS company_size,
  revenue AS company_revenue, age AS company_age, locations AS company_locations,
  country_code AS company_country_code, region_country_code AS company_region_country_code,
  city_region_country AS company_city_region_country, naics AS company_naics, is_public AS company_is_public,
  has_website AS company_has_website FROM businesses`,
  /** A prospect's employer (its company columns are the business's, joined by this rowid). */
  updateProspectCompany: 'UPDATE prospects SET business_rowid = ?, wire = ? WHERE rowid = ?',
  updateProspectWire: 'UPDATE prospects SET wire = ? WHERE rowid = ?',
  prospectDocs: 'SELECT rowid, business_id, business_rowid, wire, rest FROM prospects',
  /** `load-keys.ts`: what a prospect's exact match keys are derived from. */
  prospectKeySources: 'SELECT rowid, linkedin_slug, wire, rest FROM prospects ORDER BY rowid',
} as const;

/** `rows` rows of `columns` into `stream` in one statement. */
export function insertRowsSql(stream: string, columns: readonly string[], rows: number): string {
  const tuple = `(${Array(columns.length).fill('?').join(', ')})`;
  return `INSERT INTO ${stream} (${columns.join(', ')}) VALUES ${Array(rows).fill(tuple).join(', ')}`;
}

/**
 * Empties a stream's table before the stream is loaded again. Files loaded by older versions also hold
 * a `match_keys` table (exact keys → rows), now kept in the saved match indexes only: dropped.
 */
export function clearStreamSql(stream: 'businesses' | 'prospects' | 'events'): string {
  if (stream === 'events') return 'DELETE FROM events';
  return `DELETE FROM ${stream}; DROP TABLE IF EXISTS match_keys;`;
}

/**
 * `store/migrate.ts`: an older file's records rewritten from their `doc` (before 5) or their `wire` and
 * `rest` (5), a batch of rowids at a time.
 */
export const MIGRATE_SQL = {
  updateBusiness: `UPDATE businesses SET website_url = ?, linkedin_profile = ?, wire = ?, facets = ?, rest = ?,
    other_names = ? WHERE rowid = ?`,
  businessDocs: 'SELECT rowid, doc FROM businesses WHERE rowid > ? ORDER BY rowid LIMIT ?',
  businessStored: 'SELECT rowid, wire, rest FROM businesses WHERE rowid > ? ORDER BY rowid LIMIT ?',
  updateProspect: 'UPDATE prospects SET wire = ?, facets = ?, rest = ? WHERE rowid = ?',
  prospectDocs: `SELECT p.rowid, p.doc, b.name AS company_name, b.website_url AS company_website,
    b.linkedin_profile AS company_linkedin FROM prospects p LEFT JOIN businesses b ON b.rowid = p.business_rowid
    WHERE p.rowid > ? ORDER BY p.rowid LIMIT ?`,
} as const;
