/**
 * Entity ids by match-index position, read from the table by rowid when asked: an answer returns a few,
 * and holding them all in the saved index cost every first match of a process their bytes (53 MB of
 * business ids at 1M businesses, 78 MB of prospect ids at 1M prospects).
 */
import type { Db } from '../../store/db.js';
import type { StringColumn } from '../format/strings.js';

/**
 * The ids of positions `0 .. size - 1`: `read(db, rowid)` of the rowid at each position, which
 * `rowids()` gives (empty when the rowids are simply `position + 1`, as after a fresh load). `rowids`
 * is called when an id is first read, not before (it may be a field read from the file on first use).
 */
export function tableIds(
  db: Db,
  size: number,
  rowids: () => Int32Array,
  read: (db: Db, rowid: number) => string | undefined,
): StringColumn {
  return {
    length: size,
    at: (pos) => {
      if (!(pos >= 0 && pos < size)) return undefined;
      const r = rowids();
      return read(db, r.length === 0 ? pos + 1 : (r[pos] as number));
    },
  };
}
