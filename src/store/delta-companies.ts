/**
 * The company columns of the prospects a delta's business changes reach, derived again from the
 * businesses now stored (`load-companies.ts` does it for every prospect when only businesses reload).
 */
import { NO_COMPANY, type CompanyColumns } from './derive.js';
import type { Db } from './open.js';
import { DELTA_SQL } from './sql/delta.js';
import { prospectCompanyWriter } from './load-companies.js';

/**
 * Derives again the company columns (and the fetch record, which shows the company's name, website and
 * profile) of the prospects employed by the businesses at `businessRowids` (written or deleted; a new
 * one employs none yet) and of those naming a business of `newBusinessIds` that was not stored before.
 * Returns their rowids.
 */
export function refreshCompanies(
  db: Db,
  businessRowids: Set<number>,
  newBusinessIds: Set<string>,
): Set<number> {
  const targets = new Set<number>();
  const employed = db.prepare(DELTA_SQL.prospectsOfBusiness).pluck();
  for (const rowid of businessRowids) for (const p of employed.iterate(rowid)) targets.add(p as number);
  if (newBusinessIds.size > 0) {
    for (const [rowid, id] of db.prepare(DELTA_SQL.withoutEmployer).raw().iterate() as Iterable<
      [number, string]
    >)
      if (newBusinessIds.has(id)) targets.add(rowid);
  }
  if (targets.size === 0) return targets;

  const companyOf = db.prepare(DELTA_SQL.companyOf);
  const companies = new Map<string, CompanyColumns | undefined>();
  const company = (id: string): CompanyColumns | undefined => {
    if (!companies.has(id)) {
      const row = companyOf.get(id) as (CompanyColumns & { business_id?: string }) | undefined;
      if (row) delete row.business_id;
      companies.set(id, row);
    }
    return companies.get(id);
  };
  const doc = db.prepare(DELTA_SQL.prospectDoc);
  const write = prospectCompanyWriter(db);
  for (const rowid of [...targets].sort((a, b) => a - b)) {
    const row = doc.get(rowid) as {
      business_id: string | null;
      business_rowid: number | null;
      wire: Buffer;
      rest: Buffer;
    };
    write(rowid, row, (row.business_id && company(row.business_id)) || NO_COMPANY);
  }
  return targets;
}
