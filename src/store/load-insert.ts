/**
 * The bulk inserter of one stream: rows buffered and inserted many per statement.
 */
import type { StreamName } from '../snapshot/files.js';
import { COLUMNS } from './load-columns.js';
import type { Db } from './open.js';
import { insertRowsSql } from './sql/load.js';

/** Rows per multi-row INSERT. */
const ROWS_PER_INSERT = 50;

export interface Inserter {
  /** Buffers a row; returns its rowid (entity streams) or 0 (events, numbered by SQLite). */
  add(values: unknown[]): number;
  /** Inserts what is still buffered (call once, at the end of the stream). */
  flush(): void;
}

/**
 * Buffers rows and inserts them `ROWS_PER_INSERT` at a time through statements prepared once per
 * stream (one statement run per 50 rows instead of one per row). Entity rowids are given explicitly,
 * counting from 1 as SQLite would in the emptied table, so a row's rowid is known before its INSERT
 * runs (the match keys handed to the index build name it).
 */
export function inserter(db: Db, stream: StreamName): Inserter {
  const entity = stream !== 'events';
  const columns = entity ? ['rowid', ...COLUMNS[stream]] : COLUMNS[stream];
  const n = columns.length;
  const sql = (rows: number) => insertRowsSql(stream, columns, rows);
  const one = db.prepare(sql(1));
  const many = db.prepare(sql(ROWS_PER_INSERT));
  const params: unknown[] = new Array(n * ROWS_PER_INSERT).fill(null);
  let rows = 0;
  let rowid = 0;
  return {
    add(values) {
      let at = rows * n;
      if (entity) params[at++] = ++rowid;
      for (let i = 0; i < values.length; i++) params[at++] = values[i];
      if (++rows === ROWS_PER_INSERT) {
        many.run(params);
        rows = 0;
      }
      return rowid;
    },
    flush() {
      for (let r = 0; r < rows; r++) one.run(params.slice(r * n, r * n + n));
      rows = 0;
    },
  };
}
