/**
 * Dense bitsets over rowids: one bit per row in `Uint32Array` words, so AND / OR / ANDNOT and counts
 * are word operations. Postings are roaring-style containers: a sorted `Uint32Array` of rowids while a
 * value is sparse, a `Bitset` once it holds more than one row in 32 (the bitset is then no larger).
 */

export class Bitset {
  readonly words: Uint32Array;
  /** Number of addressable bits (max rowid + 1). */
  readonly size: number;

  constructor(size: number, words?: Uint32Array) {
    this.size = size;
    this.words = words ?? new Uint32Array((size + 31) >>> 5);
  }

  clone(): Bitset {
    return new Bitset(this.size, this.words.slice());
  }

  has(i: number): boolean {
    return ((this.words[i >>> 5] ?? 0) & (1 << (i & 31))) !== 0;
  }

  add(i: number): void {
    const w = i >>> 5;
    this.words[w] = (this.words[w] ?? 0) | (1 << (i & 31));
  }
}

/** A posting list: the rows holding one value. */
export type Posting = Uint32Array | Bitset;

export function popcount32(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Number of set bits. */
export function cardinality(b: Bitset): number {
  const w = b.words;
  let n = 0;
  for (let i = 0; i < w.length; i++) {
    const v = w[i]!;
    if (v !== 0) n += popcount32(v);
  }
  return n;
}

export function postingSize(p: Posting): number {
  return p instanceof Bitset ? cardinality(p) : p.length;
}

/** `target |= posting`. */
export function orInto(target: Bitset, p: Posting): void {
  const t = target.words;
  if (p instanceof Bitset) {
    const s = p.words;
    const n = Math.min(t.length, s.length);
    for (let i = 0; i < n; i++) t[i]! |= s[i]!;
    return;
  }
  for (let i = 0; i < p.length; i++) {
    const r = p[i]!;
    t[r >>> 5]! |= 1 << (r & 31);
  }
}

/** `target &= other`. */
export function andInto(target: Bitset, other: Bitset): void {
  const t = target.words;
  const s = other.words;
  for (let i = 0; i < t.length; i++) t[i]! &= s[i] ?? 0;
}

/** `target &= ~other`. */
export function andNotInto(target: Bitset, other: Bitset): void {
  const t = target.words;
  const s = other.words;
  const n = Math.min(t.length, s.length);
  for (let i = 0; i < n; i++) t[i]! &= ~s[i]!;
}

/** A new bitset holding the union of the postings. */
export function unionOf(size: number, postings: Iterable<Posting>): Bitset {
  const out = new Bitset(size);
  for (const p of postings) orInto(out, p);
  return out;
}

/** `a & b` as a new bitset. */
export function intersect(a: Bitset, b: Bitset): Bitset {
  const out = a.clone();
  andInto(out, b);
  return out;
}

/** Count of `a & b` without allocating. */
export function intersectCount(a: Bitset, b: Posting): number {
  if (b instanceof Bitset) {
    const x = a.words;
    const y = b.words;
    let n = 0;
    for (let i = 0; i < x.length; i++) {
      const v = x[i]! & (y[i] ?? 0);
      if (v !== 0) n += popcount32(v);
    }
    return n;
  }
  let n = 0;
  for (let i = 0; i < b.length; i++) if (a.has(b[i]!)) n++;
  return n;
}

/**
 * Calls `fn(row)` for set bits in ascending order starting at `from` (inclusive); stops when `fn`
 * returns false.
 */
export function forEachFrom(b: Bitset, from: number, fn: (row: number) => boolean | void): void {
  const w = b.words;
  let i = from >>> 5;
  if (i >= w.length) return;
  let word = w[i]! & (~0 << (from & 31));
  for (;;) {
    while (word !== 0) {
      const t = word & -word;
      const row = (i << 5) + (31 - Math.clz32(t));
      if (fn(row) === false) return;
      word ^= t;
    }
    i++;
    if (i >= w.length) return;
    word = w[i]!;
  }
}

/** Up to `limit` set bits at or after `from`, ascending. */
export function take(b: Bitset, from: number, limit: number): number[] {
  const out: number[] = [];
  if (limit <= 0) return out;
  forEachFrom(b, from, (row) => {
    out.push(row);
    return out.length < limit;
  });
  return out;
}

/** The position of the `k`-th set bit (0-based), or -1 when there are not that many. */
export function select(b: Bitset, k: number): number {
  const w = b.words;
  let seen = 0;
  for (let i = 0; i < w.length; i++) {
    const v = w[i]!;
    if (v === 0) continue;
    const c = popcount32(v);
    if (seen + c > k) {
      let word = v;
      for (let j = seen; j < k; j++) word &= word - 1;
      return (i << 5) + (31 - Math.clz32(word & -word));
    }
    seen += c;
  }
  return -1;
}

/** Grows a sorted rowid list while a snapshot is scanned in rowid order. */
export class PostingBuilder {
  private buf = new Uint32Array(4);
  length = 0;
  /** Last row added (rows arrive ascending; a repeated row is ignored). */
  last = -1;

  push(row: number): void {
    if (row === this.last) return;
    this.last = row;
    if (this.length === this.buf.length) {
      const next = new Uint32Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = row;
  }

  /** Sorted array while sparse, bitset once denser than one row in 32 of `size` ({@link postingOf}). */
  finish(size: number): Posting {
    return postingOf(this.buf.subarray(0, this.length), size);
  }
}

/** The posting of `rows` (ascending, distinct): a copy of them while sparse, else a bitset of `size`. */
export function postingOf(rows: Uint32Array, size: number): Posting {
  if (rows.length * 32 > size) {
    const b = new Bitset(size);
    for (let i = 0; i < rows.length; i++) b.add(rows[i]!);
    return b;
  }
  return rows.slice();
}
