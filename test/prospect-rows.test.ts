/**
 * The prospects' filter columns read by blocks of text (`prospectRows`) are the rows the table holds, as
 * better-sqlite3 gives them row by row (the oracle): nulls, empty strings, separators inside values,
 * lone surrogates, rowid gaps, and blocks SQLite cannot make.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ownString, prospectRows, type ProspectRow } from '../src/indexes/prospect-rows.js';
import { PROSPECTS_TABLE } from '../src/store/schema.js';
import { SCAN_SQL } from '../src/store/sql/scans.js';

const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', 'v', '\u001f', 'a\u001fb', '\ud800', 'Senior Software Engineer, Platform'),
);
const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const int = fc.integer({ min: -(2 ** 40), max: 2 ** 40 });
const row = fc.record({
  gap: fc.integer({ min: 1, max: 40 }),
  business_rowid: nullable(int),
  country_code: nullable(text),
  region_country_code: nullable(text),
  job_title: text,
  job_level: nullable(text),
  job_department: nullable(text),
  total_experience_months: nullable(int),
  current_role_months: nullable(int),
  has_email: fc.integer({ min: 0, max: 1 }),
  has_phone: fc.integer({ min: 0, max: 1 }),
});

/** The values of one generated row. */
type RowInput = typeof row extends fc.Arbitrary<infer T> ? T : never;

/** A `prospects` table holding `rows` at rowids spaced by their gaps; returns the largest rowid. */
function tableOf(db: Database.Database, rows: RowInput[]): number {
  db.exec(PROSPECTS_TABLE);
  const insert = db.prepare(
    `INSERT INTO prospects (rowid, prospect_id, business_rowid, full_name, name_key, country_code,
       region_country_code, job_title, job_level, job_department, total_experience_months,
       current_role_months, has_email, has_phone, rest)
     VALUES (?, ?, ?, '', '', ?, ?, ?, ?, ?, ?, ?, ?, ?, x'')`,
  );
  let rowid = 0;
  for (const r of rows) {
    rowid += r.gap;
    insert.run(
      rowid,
      `p${rowid}`,
      r.business_rowid,
      r.country_code,
      r.region_country_code,
      r.job_title,
      r.job_level,
      r.job_department,
      r.total_experience_months,
      r.current_role_months,
      r.has_email,
      r.has_phone,
    );
  }
  return rowid;
}

const oracle = (db: Database.Database) =>
  db.prepare(SCAN_SQL.prospectRange).raw().all(1, Number.MAX_SAFE_INTEGER) as ProspectRow[];

describe('prospectRows', () => {
  it('gives every row the table holds, in rowid order, with the values a row-by-row read gives', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 120 }), fc.integer({ min: 1, max: 64 }), (rows, block) => {
        const db = new Database(':memory:');
        try {
          const max = tableOf(db, rows);
          expect([...prospectRows(db, max, block)]).toEqual(oracle(db));
        } finally {
          db.close();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads a block row by row when a value holds the separator, and the blocks around it by text', () => {
    const db = new Database(':memory:');
    try {
      const max = tableOf(db, [
        { ...blank, job_title: 'Engineer', country_code: 'us' },
        { ...blank, job_title: 'Head\u001fof Sales', job_level: '' },
        { ...blank, job_title: 'CEO', total_experience_months: 0, has_email: 1 },
      ]);
      const rows = [...prospectRows(db, max, 2)];
      expect(rows).toEqual(oracle(db));
      expect(rows.map((r) => [r[2], r[4], r[5], r[7], r[9]])).toEqual([
        ['us', 'Engineer', null, null, 0],
        [null, 'Head\u001fof Sales', '', null, 0],
        [null, 'CEO', null, 0, 1],
      ]);
    } finally {
      db.close();
    }
  });
});

const blank: RowInput = {
  gap: 1,
  business_rowid: null,
  country_code: null,
  region_country_code: null,
  job_title: '',
  job_level: null,
  job_department: null,
  total_experience_months: null,
  current_role_months: null,
  has_email: 0,
  has_phone: 0,
};

describe('ownString', () => {
  it('is equal to the string it copies, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(ownString(s)).toBe(s);
      }),
    );
  });
});
