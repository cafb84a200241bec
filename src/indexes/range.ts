/**
 * An integer column sorted once: rows ordered by value, so a range `{gte, lte}` is two binary searches
 * and a slice of rows. Rows without a value are not in the index (they never satisfy a range).
 *
 * A wide range would set hundreds of thousands of scattered bits one by one (4.5 ms at 1M rows), so the
 * sorted order is also cut into BUCKETS equal slices with a bitset of every row before each cut: the
 * bulk of a range is then one word-wise ANDNOT of two of those, and only the rows between a bound and the
 * nearest cut are set one by one (at most 2/BUCKETS of the rows). Memory: BUCKETS + 1 bitsets of n bits.
 */
import { Bitset } from './bitset.js';

export interface RangeIndex {
  /** Values ascending. */
  readonly values: Int32Array;
  /** Row of each entry of `values`. */
  readonly rows: Uint32Array;
  /** Positions in `values` where the slices start, ascending, last = `values.length`. */
  readonly cuts: Uint32Array;
  /** `before[j]`: the rows at positions below `cuts[j]`. */
  readonly before: Bitset[];
}

const BUCKETS = 64;
/** Below this many rows the cuts cost more memory than they save time. */
const MIN_ROWS_FOR_CUTS = 1 << 16;

/** Each row at most once; `size` is the bit count of the index's bitsets (max row + 1). */
export function buildRange(
  entries: { row: number; value: number }[],
  size: number,
  buckets = entries.length >= MIN_ROWS_FOR_CUTS ? BUCKETS : 1,
): RangeIndex {
  const { values, rows } = sortByValue(entries);
  const n = rows.length;
  const cuts = Uint32Array.from({ length: buckets + 1 }, (_, j) => Math.round((j * n) / buckets));
  const before: Bitset[] = [new Bitset(size)];
  for (let j = 1; j <= buckets; j++) {
    const b = before[j - 1]!.clone();
    setRows(b, rows, cuts[j - 1]!, cuts[j]!);
    before.push(b);
  }
  return { values, rows, cuts, before };
}

/**
 * `entries` ordered by value, then row. The common case (rows ascending, as a rowid-ordered scan adds
 * them, and integer values of a span not much larger than their count: months, years) is a counting
 * sort, linear and without a comparator call per pair (the sort was ~8 % of the prospect index build);
 * anything else is sorted.
 */
function sortByValue(entries: readonly { row: number; value: number }[]): {
  values: Int32Array;
  rows: Uint32Array;
} {
  const n = entries.length;
  let min = Infinity;
  let max = -Infinity;
  let counting = n > 0;
  for (let i = 0; i < n && counting; i++) {
    const { row, value } = entries[i]!;
    if (!Number.isInteger(value) || (i > 0 && row <= entries[i - 1]!.row)) counting = false;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  if (counting && max - min <= Math.max(1024, 4 * n)) {
    const start = new Uint32Array(max - min + 2);
    for (let i = 0; i < n; i++) start[entries[i]!.value - min + 1]!++;
    for (let v = 1; v < start.length; v++) start[v]! += start[v - 1]!;
    const values = new Int32Array(n);
    const rows = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const { row, value } = entries[i]!;
      const at = start[value - min]!++;
      values[at] = value;
      rows[at] = row;
    }
    return { values, rows };
  }
  const sorted = [...entries].sort((a, b) => a.value - b.value || a.row - b.row);
  return {
    values: Int32Array.from(sorted, (e) => e.value),
    rows: Uint32Array.from(sorted, (e) => e.row),
  };
}

/** First index whose value is ≥ `v`. */
function lowerBound(a: ArrayLike<number>, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function setRows(out: Bitset, rows: Uint32Array, from: number, to: number): void {
  const w = out.words;
  for (let i = from; i < to; i++) {
    const r = rows[i]!;
    w[r >>> 5]! |= 1 << (r & 31);
  }
}

/** Rows whose value lies in `[gte, lte]` (either bound optional), written into `out` when given. */
export function rangeRows(
  index: RangeIndex,
  size: number,
  gte: number | null,
  lte: number | null,
  out: Bitset = new Bitset(size),
): Bitset {
  const from = gte === null ? 0 : lowerBound(index.values, Math.max(gte, -0x80000000));
  const to = lte === null ? index.values.length : lowerBound(index.values, Math.min(lte, 0x7ffffffe) + 1);
  // The cuts inside [from, to]: the rows between them come from two prefix bitsets.
  const { cuts, before } = index;
  const first = lowerBound(cuts, from);
  const last = lowerBound(cuts, to + 1) - 1;
  if (first >= last) {
    out.words.fill(0);
    setRows(out, index.rows, from, to);
    return out;
  }
  const w = out.words;
  w.set(before[last]!.words); // overwrites every word
  const lower = before[first]!.words;
  for (let i = 0; i < w.length; i++) w[i]! &= ~lower[i]!;
  setRows(out, index.rows, from, cuts[first]!);
  setRows(out, index.rows, cuts[last]!, to);
  return out;
}
