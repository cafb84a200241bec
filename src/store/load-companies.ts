/**
 * The company fields prospects inherit from their business: handed to the prospects stream as it loads
 * (`companyRows`), and re-derived for every stored prospect when only businesses are reloaded
 * (`refreshProspectCompanies`).
 */
import { decodeDoc, fileCodec } from './codec.js';
import { NO_COMPANY, type CompanyColumns } from './derive.js';
import type { Db } from './open.js';
import { packWire, prospectRecord } from './wire.js';
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

/**
 * Writes a prospect's employer again (`business_rowid`: every other company column is the business's,
 * joined) and its fetch record, which shows the company's name, website and profile (`rest` stays: the
 * fields it leaves to `wire` do not depend on the company). The full refresh below and a delta's
 * (`delta-companies.ts`) both write through it.
 */
export function prospectCompanyWriter(
  db: Db,
): (
  rowid: number,
  stored: { business_rowid: number | null; wire: Buffer; rest: Buffer },
  company: CompanyColumns | typeof NO_COMPANY,
) => void {
  const update = db.prepare(LOAD_SQL.updateProspectCompany);
  const wire = db.prepare(LOAD_SQL.updateProspectWire);
  const codec = fileCodec(db);
  return (rowid, stored, company) => {
    const record = decodeDoc('prospects', stored.wire, stored.rest, codec);
    const bytes = packWire('prospects', prospectRecord(record, company));
    // `business_rowid` is set only when it moves: setting an indexed column rewrites its index entry
    // even to the same value (20,000 prospects on the 1M base: 121–127 ms against 186 ms setting both).
    if (company.business_rowid === stored.business_rowid) wire.run(bytes, rowid);
    else update.run(company.business_rowid, bytes, rowid);
  };
}

/** After businesses change without a prospects stream, re-derive the company columns of every prospect. */
export function refreshProspectCompanies(db: Db): void {
  const companies = companyLookup(db);
  // A rare path (businesses reloaded without prospects): every stored record is rewritten.
  const write = prospectCompanyWriter(db);
  const rows = db.prepare(LOAD_SQL.prospectDocs).all() as {
    rowid: number;
    business_id: string | null;
    business_rowid: number | null;
    wire: Buffer;
    rest: Buffer;
  }[];
  for (const row of rows) {
    write(row.rowid, row, (row.business_id && companies.get(row.business_id)) || NO_COMPANY);
  }
}
