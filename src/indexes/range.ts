/**
 * An integer column sorted once: rows ordered by value, so a range `{gte, lte}` is two binary searches
 * and a slice of rows. Rows without a value are not in the index (they never satisfy a range).
 */
import { Bitset } from './bitset.js';

export interface RangeIndex {
  /** Values ascending. */
  readonly values: Int32Array;
  /** Row of each entry of `values`. */
  readonly rows: Uint32Array;
}

export function buildRange(entries: { row: number; value: number }[]): RangeIndex {
  entries.sort((a, b) => a.value - b.value || a.row - b.row);
  return {
    values: Int32Array.from(entries, (e) => e.value),
    rows: Uint32Array.from(entries, (e) => e.row),
  };
}

/** First index whose value is ≥ `v`. */
function lowerBound(a: Int32Array, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Rows whose value lies in `[gte, lte]` (either bound optional). */
export function rangeRows(index: RangeIndex, size: number, gte: number | null, lte: number | null): Bitset {
  const out = new Bitset(size);
  const from = gte === null ? 0 : lowerBound(index.values, Math.max(gte, -0x80000000));
  const to = lte === null ? index.values.length : lowerBound(index.values, Math.min(lte, 0x7ffffffe) + 1);
  const w = out.words;
  const rows = index.rows;
  for (let i = from; i < to; i++) {
    const r = rows[i]!;
    w[r >>> 5]! |= 1 << (r & 31);
  }
  return out;
}
