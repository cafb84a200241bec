/**
 * The company fields prospects inherit from their business: handed to the prospects stream as it loads
 * (`companyRows`), and re-derived for every stored prospect when only businesses are reloaded
 * (`refreshProspectCompanies`).
 */
import { decodeDoc } from './codec.js';
import { NO_COMPANY, type CompanyColumns } from './derive.js';
import type { Db } from './open.js';
import { prospectWire } from './wire.js';
import { LOAD_SQL } from './sql/load.js';

/** The company columns of every business, flattened in `COMPANY_FIELDS` order (what workers receive). */
export function companyRows(db: Db): unknown[] {
  const flat: unknown[] = [];
  for (const row of db.prepare(LOAD_SQL.companies).raw().iterate() as Iterable<unknown[]>) {
    for (const v of row) flat.push(v);
  }
  return flat;
}

/** business_id → the company columns its prospects inherit. */
export function companyLookup(db: Db): Map<string, CompanyColumns> {
  const map = new Map<string, CompanyColumns>();
  for (const row of db.prepare(LOAD_SQL.companies).iterate() as Iterable<
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
  const update = db.prepare(LOAD_SQL.updateProspectCompany);
  // The stored fetch record shows the company columns, so it is rebuilt from the doc (a rare path:
  // businesses reloaded without prospects).
  const wire = db.prepare(LOAD_SQL.updateProspectWire);
  const rows = db.prepare(LOAD_SQL.prospectDocs).all() as {
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
