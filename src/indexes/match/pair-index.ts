/**
 * Postings of token pairs: for every two distinct tokens a document has, the documents having both. A
 * name search that must find the names sharing two or more query words reads these short lists instead
 * of the long postings of each word ("ventures" is in 1 name of 8), so its cost stops growing with the
 * common words' postings. Stored as CSR arrays keyed by the smaller token id; the per-pair arrays are
 * columns read by position or range (`format/ints.ts`), in pages once saved.
 */
import { Ints, type IntColumn } from '../format/ints.js';

export interface PairIndex {
  /** Pairs whose smaller token id is `a`: entries `start[a] .. start[a + 1]` of `second`, ascending. */
  readonly start: Int32Array;
  /** The larger token id of each pair. */
  readonly second: IntColumn;
  /** Documents of pair `e`: `post.range(postStart.at(e), postStart.at(e + 1))`, ascending. */
  readonly postStart: IntColumn;
  readonly post: IntColumn;
}

/**
 * Builds the pair postings of `size` documents whose distinct token ids are
 * `docTok[docStart[d] .. docStart[d + 1])`, over a vocabulary of `vocabSize` ids. Two stable counting
 * sorts (by the larger id, then by the smaller) order the (pair, document) entries without a comparison
 * sort.
 */
export function buildPairIndex(
  vocabSize: number,
  size: number,
  docStart: Int32Array,
  docTok: Int32Array,
): PairIndex {
  let total = 0;
  for (let d = 0; d < size; d++) {
    const n = (docStart[d + 1] as number) - (docStart[d] as number);
    total += (n * (n - 1)) / 2;
  }
  const lo = new Int32Array(total);
  const hi = new Int32Array(total);
  const doc = new Int32Array(total);
  let e = 0;
  for (let d = 0; d < size; d++) {
    const from = docStart[d] as number;
    const to = docStart[d + 1] as number;
    for (let i = from; i < to; i++) {
      for (let j = i + 1; j < to; j++) {
        const a = docTok[i] as number;
        const b = docTok[j] as number;
        lo[e] = a < b ? a : b;
        hi[e] = a < b ? b : a;
        doc[e++] = d;
      }
    }
  }
  const byHi = countingOrder(vocabSize, hi, null);
  const order = countingOrder(vocabSize, lo, byHi);

  const start = new Int32Array(vocabSize + 1);
  const second: number[] = [];
  const postStart: number[] = [];
  const post = new Int32Array(total);
  let prevLo = -1;
  let prevHi = -1;
  for (let k = 0; k < total; k++) {
    const x = order[k] as number;
    const a = lo[x] as number;
    const b = hi[x] as number;
    if (a !== prevLo || b !== prevHi) {
      second.push(b);
      postStart.push(k);
      start[a + 1] = second.length;
      prevLo = a;
      prevHi = b;
    }
    post[k] = doc[x] as number;
  }
  postStart.push(total);
  // Ids with no pair start where the previous id ended.
  for (let a = 1; a <= vocabSize; a++)
    if ((start[a] as number) < (start[a - 1] as number)) start[a] = start[a - 1] as number;
  return {
    start,
    second: new Ints(Int32Array.from(second)),
    postStart: new Ints(Int32Array.from(postStart)),
    post: new Ints(post),
  };
}

/** A stable counting sort of entries `within` (all when null) by `key`: the entries in key order. */
function countingOrder(keys: number, key: Int32Array, within: Int32Array | null): Int32Array {
  const n = key.length;
  const at = new Int32Array(keys + 1);
  for (let i = 0; i < n; i++) {
    const k = (key[i] as number) + 1;
    at[k] = (at[k] as number) + 1;
  }
  for (let k = 0; k < keys; k++) at[k + 1] = (at[k + 1] as number) + (at[k] as number);
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const x = within === null ? i : (within[i] as number);
    const k = key[x] as number;
    out[at[k] as number] = x;
    at[k] = (at[k] as number) + 1;
  }
  return out;
}

/** The entry of pair {a, b} (a ≠ b), or -1 when no document has both. */
export function pairEntry(index: PairIndex, a: number, b: number): number {
  if (a > b) [a, b] = [b, a];
  let l = index.start[a] as number;
  let h = (index.start[a + 1] as number) - 1;
  while (l <= h) {
    const m = (l + h) >>> 1;
    const s = index.second.at(m);
    if (s === b) return m;
    if (s < b) l = m + 1;
    else h = m - 1;
  }
  return -1;
}

const NONE = new Int32Array(0);

/** The documents having both tokens `a` and `b` (a ≠ b), ascending; empty when none has. */
export function pairPostings(index: PairIndex, a: number, b: number): Int32Array {
  const e = pairEntry(index, a, b);
  return e < 0 ? NONE : index.post.range(index.postStart.at(e), index.postStart.at(e + 1));
}
