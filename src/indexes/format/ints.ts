/**
 * Integer columns a matcher reads by position or by range, whole in the process that built them and in
 * pages once saved: a first match reads the pages its lookups land in. At 5M prospects the employer of
 * each prospect is 20 MB and the name-word postings 42 MB, and a 50-row name match needs a few binary
 * searches in them, not every page.
 */
import { PagedColumn } from './strings.js';

/** What readers of an integer column need. */
export interface IntColumn {
  readonly length: number;
  /** Entry `i` (0 ≤ i < length). */
  at(i: number): number;
  /** Entries `[lo, hi)`: a view when they lie in one page, else a copy. */
  range(lo: number, hi: number): Int32Array;
}

/** A column over one `Int32Array` (an index built in this process). */
export class Ints implements IntColumn {
  readonly length: number;

  constructor(readonly array: Int32Array) {
    this.length = array.length;
  }

  at(i: number): number {
    return this.array[i] as number;
  }

  range(lo: number, hi: number): Int32Array {
    return this.array.subarray(lo, hi);
  }
}

/** A column cut in pages of 2^`bits` entries, each read on first access. Saved by {@link intPages}. */
export class PagedInts extends PagedColumn<Int32Array> implements IntColumn {
  at(i: number): number {
    return this.pages.at(i >>> this.bits)[i & this.mask] as number;
  }

  range(lo: number, hi: number): Int32Array {
    const first = lo >>> this.bits;
    if (hi <= lo) return new Int32Array(0);
    if ((hi - 1) >>> this.bits === first)
      return this.pages.at(first).subarray(lo & this.mask, (lo & this.mask) + hi - lo);
    const out = new Int32Array(hi - lo);
    for (let at = lo; at < hi;) {
      const page = at >>> this.bits;
      const end = Math.min(hi, (page + 1) * 2 ** this.bits);
      out.set(this.pages.at(page).subarray(at & this.mask, (at & this.mask) + end - at), at - lo);
      at = end;
    }
    return out;
  }
}

/** `column` cut in pages of 2^`bits` entries (the last one shorter), for {@link PagedInts}. */
export function intPages(column: IntColumn, bits: number): Int32Array[] {
  const size = 2 ** bits;
  const out: Int32Array[] = [];
  for (let from = 0; from < column.length; from += size)
    out.push(column.range(from, Math.min(column.length, from + size)).slice());
  return out;
}
