/**
 * The bulk inserter of one stream: rows and their match keys buffered and inserted many per statement.
 */
import type { StreamName } from '../snapshot/files.js';
import { COLUMNS } from './load-columns.js';
import type { Db } from './open.js';
import { insertKeysSql, insertRowsSql } from './sql/load.js';

/** Rows per multi-row INSERT, and match keys per multi-row INSERT of keys. */
const ROWS_PER_INSERT = 50;
const KEYS_PER_INSERT = 200;

export interface Inserter {
  add(values: unknown[], keys: string[]): void;
  /** Inserts what is still buffered (call once, at the end of the stream). */
  flush(): void;
}

/**
 * Buffers rows and inserts them `ROWS_PER_INSERT` at a time through statements prepared once per
 * stream (one statement run per 50 rows instead of one per row), then their match keys the same way.
 * Entity rowids are given explicitly, counting from 1 as SQLite would in the emptied table, so a row's
 * match keys are known before its INSERT runs.
 */
export function inserter(db: Db, stream: StreamName): Inserter {
  const entity = stream === 'businesses' ? 'business' : stream === 'prospects' ? 'prospect' : undefined;
  const columns = entity ? ['rowid', ...COLUMNS[stream]] : COLUMNS[stream];
  const n = columns.length;
  const sql = (rows: number) => insertRowsSql(stream, columns, rows);
  const one = db.prepare(sql(1));
  const many = db.prepare(sql(ROWS_PER_INSERT));
  const keySql = insertKeysSql;
  const keyOne = db.prepare(keySql(1));
  const keyMany = db.prepare(keySql(KEYS_PER_INSERT));
  const params: unknown[] = new Array(n * ROWS_PER_INSERT).fill(null);
  const keyParams: unknown[] = new Array(4 * KEYS_PER_INSERT).fill(null);
  let rows = 0;
  let keyCount = 0;
  let rowid = 0;
  return {
    add(values, keys) {
      let at = rows * n;
      if (entity) params[at++] = ++rowid;
      for (let i = 0; i < values.length; i++) params[at++] = values[i];
      if (++rows === ROWS_PER_INSERT) {
        many.run(params);
        rows = 0;
      }
      for (let i = 0; i < keys.length; i += 2) {
        const k = keyCount * 4;
        keyParams[k] = entity;
        keyParams[k + 1] = keys[i];
        keyParams[k + 2] = keys[i + 1];
        keyParams[k + 3] = rowid;
        if (++keyCount === KEYS_PER_INSERT) {
          keyMany.run(keyParams);
          keyCount = 0;
        }
      }
    },
    flush() {
      for (let r = 0; r < rows; r++) one.run(params.slice(r * n, r * n + n));
      for (let k = 0; k < keyCount; k++) keyOne.run(keyParams.slice(k * 4, k * 4 + 4));
      rows = 0;
      keyCount = 0;
    },
  };
}
