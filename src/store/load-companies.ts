/**
 * The company fields prospects inherit from their business: handed to the prospects stream as it loads
 * (`companyRows`), and re-derived for every stored prospect when only businesses are reloaded
 * (`refreshProspectCompanies`).
 */
import { decodeDoc } from './codec.js';
import { NO_COMPANY, type CompanyColumns } from './derive.js';
import type { Db } from './open.js';
import { prospectWire } from './wire.js';

/** The company columns of every business, flattened in `COMPANY_FIELDS` order (what workers receive). */
export function companyRows(db: Db): unknown[] {
  const flat: unknown[] = [];
  for (const row of db.prepare(COMPANY_SELECT).raw().iterate() as Iterable<unknown[]>) {
    for (const v of row) flat.push(v);
  }
  return flat;
}

// Narrow columns only: decoding every business `doc` (with its large `enrichments`) just for the
// website and profile URL was the costliest part of starting the prospects stream.
const COMPANY_SELECT = `SELECT business_id, rowid AS business_rowid, name AS company_name,
  website_url AS company_website, linkedin_profile AS company_linkedin, size AS company_size,
  revenue AS company_revenue, age AS company_age, locations AS company_locations,
  country_code AS company_country_code, region_country_code AS company_region_country_code,
  city_region_country AS company_city_region_country, naics AS company_naics, is_public AS company_is_public,
  has_website AS company_has_website FROM businesses`;

/** business_id → the company columns its prospects inherit. */
export function companyLookup(db: Db): Map<string, CompanyColumns> {
  const map = new Map<string, CompanyColumns>();
  for (const row of db.prepare(COMPANY_SELECT).iterate() as Iterable<
    CompanyColumns & { business_id?: string }
  >) {
    const id = row.business_id!;
    delete row.business_id;
    map.set(id, row);
  }
  return map;
}

/** After businesses change without a prospects stream, re-derive the company columns of every prospect. */
export function refreshProspectCompanies(db: Db): void {
  const companies = companyLookup(db);
  const update =
    db.prepare(`UPDATE prospects SET business_rowid = @business_rowid, company_name = @company_name,
    company_website = @company_website, company_linkedin = @company_linkedin, company_size = @company_size,
    company_revenue = @company_revenue, company_age = @company_age, company_locations = @company_locations,
    company_country_code = @company_country_code, company_region_country_code = @company_region_country_code,
    company_city_region_country = @company_city_region_country, company_naics = @company_naics,
    company_is_public = @company_is_public, company_has_website = @company_has_website WHERE rowid = @rowid`);
  // The stored fetch record shows the company columns, so it is rebuilt from the doc (a rare path:
  // businesses reloaded without prospects).
  const wire = db.prepare('UPDATE prospects SET wire = ? WHERE rowid = ?');
  const rows = db.prepare('SELECT rowid, business_id, doc FROM prospects').all() as {
    rowid: number;
    business_id: string | null;
    doc: Buffer;
  }[];
  for (const { rowid, business_id, doc } of rows) {
    const company = (business_id && companies.get(business_id)) || NO_COMPANY;
    update.run({ ...company, rowid });
    wire.run(prospectWire(decodeDoc('prospects', doc), company), rowid);
  }
}
