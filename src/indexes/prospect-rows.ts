/**
 * The filter columns of every stored prospect, in rowid order, for the prospect search index build
 * (`indexes/prospects.ts`). better-sqlite3 makes eleven JS values for each row it steps: at 1M
 * prospects that was ~3.2 s of the build (the table's pages alone read in 0.4 s). Read instead as one
 * text per block of rowids (`SCAN_SQL.prospectBlock`), split and converted here: 2.1–2.3 s for the
 * same values. A block whose text does not split into its rows (a value holding the separator) or that
 * SQLite cannot make (a text over its length limit) is read row by row, as before.
 */
import type { Db } from '../store/db.js';
import { SCAN_SQL } from '../store/sql/scans.js';

/** A row of `SCAN_SQL.prospectRange`, read raw (an array: no object with named fields per row). */
export type ProspectRow = [
  rowid: number,
  business_rowid: number | null,
  country_code: string | null,
  region_country_code: string | null,
  job_title: string,
  job_level: string | null,
  job_department: string | null,
  total_experience_months: number | null,
  current_role_months: number | null,
  has_email: number,
  has_phone: number,
];

/** Whether each column of a {@link ProspectRow} is text (else an integer): `SCAN_SQL.prospectBlock`'s. */
const TEXT = [false, false, true, true, true, true, true, false, false, false, false];
const SEPARATOR = '\u001f';
/** Rowids per block: 1,024 measured a little faster than 4,096 or 16,384 at 1M prospects. */
const BLOCK_ROWS = 1024;

/** The rows of a block's text, or `undefined` when it does not split into `count` rows. */
function rowsOfText(text: string, count: number): ProspectRow[] | undefined {
  const fields = text.split(SEPARATOR);
  const k = TEXT.length;
  if (fields.length !== count * k) return undefined;
  const rows: ProspectRow[] = new Array<ProspectRow>(count);
  for (let r = 0, at = 0; r < count; r++, at += k) {
    const row = new Array<string | number | null>(k);
    for (let j = 0; j < k; j++) {
      const f = fields[at + j]!;
      row[j] = f === '' ? null : TEXT[j] ? f.slice(1) : Number(f);
    }
    rows[r] = row as ProspectRow;
  }
  return rows;
}

/** Every stored prospect's filter columns, ascending by rowid (rowids up to `maxRowid`). */
export function* prospectRows(db: Db, maxRowid: number, blockRows = BLOCK_ROWS): Generator<ProspectRow> {
  const block = db.prepare(SCAN_SQL.prospectBlock).raw();
  const range = db.prepare(SCAN_SQL.prospectRange).raw();
  for (let lo = 1; lo <= maxRowid; lo += blockRows) {
    const hi = lo + blockRows - 1;
    let rows: ProspectRow[] | undefined;
    try {
      const [count, text] = block.get(lo, hi) as [number, string | null];
      rows = count === 0 ? [] : rowsOfText(text ?? '', count);
    } catch {
      rows = undefined; // SQLITE_TOOBIG: the block's text is longer than SQLite makes one
    }
    if (rows) yield* rows;
    else yield* range.iterate(lo, hi) as IterableIterator<ProspectRow>;
  }
}

/**
 * A copy of `s` that shares no memory with the string it was cut from. A value of 13 characters or
 * more cut from a block's text is, in V8, a slice holding the whole text: a label the index keeps
 * must not hold its block (at 1M prospects that would be ~100 MB). Exact for every string, lone
 * surrogates included.
 */
export const ownString = (s: string): string => JSON.parse(JSON.stringify(s)) as string;
