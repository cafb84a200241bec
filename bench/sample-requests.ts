/**
 * The requests the open, latency and scale benches send, drawn the same way from any loaded file, so
 * their figures compare: fetch filters cycled from broad to narrow, and match rows from the data.
 */
import type Database from 'better-sqlite3';

/** Filters of fetch and stats requests, cycled (the unfiltered one first; broad and narrow sets). */
export const FETCH_FILTERS: readonly object[] = [
  {},
  { country_code: { values: ['us'] } },
  { company_size: { values: ['11-50', '51-200'] }, has_contact_details: { value: 'email' } },
  { job_department: { values: ['engineering', 'sales'] }, country_code: { values: ['gb', 'de', 'fr'] } },
  { job_level: { values: ['director', 'manager'] }, company_revenue: { values: ['1M-5M', '5M-10M'] } },
  { total_experience_months: { gte: 60 }, is_public_company: { value: false } },
];

/**
 * 50 match rows of each kind from the data: every other business name with a typo (a fuzzy lookup),
 * the others as they are; prospects by full name and employer name.
 */
export function matchRows(db: Database.Database): {
  businesses: { name: string }[];
  prospects: { full_name: string; company_name: string }[];
} {
  const businesses = (
    db.prepare('SELECT name FROM businesses ORDER BY rowid LIMIT 50 OFFSET 1000').pluck().all() as string[]
  ).map((name, i) => ({ name: i % 2 === 0 ? name : name.slice(0, 2) + name.slice(3) }));
  const prospects = (
    db
      .prepare(
        `SELECT p.full_name, b.name FROM prospects p JOIN businesses b ON b.rowid = p.business_rowid
         ORDER BY p.rowid LIMIT 50 OFFSET 5000`,
      )
      .raw()
      .all() as [string, string][]
  ).map(([full_name, company_name]) => ({ full_name, company_name }));
  return { businesses, prospects };
}
