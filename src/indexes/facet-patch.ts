/**
 * An index patched for the rows a delta changed, from the index saved before it (the base) and an index
 * of those rows alone, instead of built from every row (`prospect-patch.ts`, `business-patch.ts`).
 *
 * The result equals a build from every row, value ids and labels included. A build numbers a facet's
 * values as their first rows come, and labels each with the spelling of its first row. So a value whose
 * first row the delta changed gets its new first row from elsewhere: the first of its base rows the
 * delta left alone is indexed again with the changed rows ({@link rowsToIndexAgain}). Then a value's
 * first row is either a base row the delta left alone whose id and label the base already had right, or
 * an indexed-again row whose id and label the changed index has; ordering the values by first row (then
 * by id, for values first met on the same row) gives the build's numbering.
 */
import { Bitset, cardinality, forEachFrom, orInto, postingOf, type Posting } from './bitset.js';
import { phraseWords, type Facet } from './facet.js';

/** The first row of `p` not in `skip` (or its first row), -1 when there is none. */
function firstRow(p: Posting, skip?: Bitset): number {
  if (p instanceof Bitset) {
    let found = -1;
    forEachFrom(p, 0, (row) => {
      if (skip?.has(row)) return true;
      found = row;
      return false;
    });
    return found;
  }
  for (const row of p) if (!skip?.has(row)) return row;
  return -1;
}

/** Whether `p` holds a row of `rows`. */
function touches(p: Posting, rows: Bitset): boolean {
  if (p instanceof Bitset) {
    const n = Math.min(p.words.length, rows.words.length);
    for (let i = 0; i < n; i++) if ((p.words[i]! & rows.words[i]!) !== 0) return true;
    return false;
  }
  for (const row of p) if (rows.has(row)) return true;
  return false;
}

/** The rows of `p` not in `skip`, ascending. */
function rowsOf(p: Posting, skip?: Bitset): number[] {
  const out: number[] = [];
  if (p instanceof Bitset) forEachFrom(p, 0, (row) => void (skip?.has(row) || out.push(row)));
  else for (const row of p) if (!skip?.has(row)) out.push(row);
  return out;
}

/** The union of two ascending row lists with no row in both. */
function merged(a: readonly number[], b: readonly number[]): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i]! < b[j]! ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

export const bitsOf = (rows: Iterable<number>, size: number): Bitset => {
  const b = new Bitset(size);
  for (const r of rows) b.add(r);
  return b;
};

/** One value of a patched facet: where its first row is, and what that side numbered and labelled it. */
interface Value {
  key: string;
  first: number;
  id: number;
  label: string;
  base?: number;
  changed?: number;
}

/**
 * `base`'s facet with the rows `again` replaced by those of `changed` (an index of those rows alone), as
 * a build from every row numbers, labels and stores it (`FacetBuilder`).
 */
export function patchFacet(base: Facet, changed: Facet, again: Bitset, size: number, phrase: boolean): Facet {
  const values = new Map<string, Value>();
  for (const [key, id] of base.keys) {
    const first = firstRow(base.postings[id]!, again);
    if (first >= 0) values.set(key, { key, first, id, label: base.labels[id]!, base: id });
  }
  for (const [key, id] of changed.keys) {
    const first = firstRow(changed.postings[id]!);
    if (first < 0) continue;
    const v = values.get(key);
    if (!v) values.set(key, { key, first, id, label: changed.labels[id]!, changed: id });
    else {
      v.changed = id;
      if (first < v.first) Object.assign(v, { first, id, label: changed.labels[id]! });
    }
  }
  // Values first met on the same row were both numbered by the side that row is on, in that order.
  const order = [...values.values()].sort((a, b) => a.first - b.first || a.id - b.id);
  const keys = new Map<string, number>();
  const labels: string[] = [];
  const postings: Posting[] = [];
  const counts = new Uint32Array(order.length);
  for (const [i, v] of order.entries()) {
    keys.set(v.key, i);
    labels.push(v.label);
    const b = v.base === undefined ? undefined : base.postings[v.base]!;
    const kept =
      b !== undefined &&
      v.changed === undefined &&
      !touches(b, again) &&
      (b instanceof Bitset ? b.size === size : b.length * 32 <= size);
    if (kept) {
      postings.push(b);
      counts[i] = base.counts[v.base!]!;
      continue;
    }
    if (b instanceof Bitset) {
      // Word by word: listing a dense value's rows and setting them again cost most of this patch
      // (a 1 % delta at 1M prospects touches every common value of every facet).
      const bits = patchBits(
        b,
        v.changed === undefined ? undefined : changed.postings[v.changed],
        again,
        size,
      );
      const count = cardinality(bits);
      postings.push(count * 32 > size ? bits : Uint32Array.from(rowsOf(bits)));
      counts[i] = count;
      continue;
    }
    const rows = merged(
      b === undefined ? [] : rowsOf(b, again),
      v.changed === undefined ? [] : rowsOf(changed.postings[v.changed]!),
    );
    postings.push(postingOf(rows, size));
    counts[i] = rows.length;
  }
  if (!phrase) return { keys, labels, postings, counts };
  return { keys, labels, postings, counts, words: phraseWords(keys) };
}

/** Every facet of an index patched ({@link patchFacet}); `phrase` names the phrase facets. */
export function patchFacets<F extends object>(
  base: F,
  changed: F,
  again: Bitset,
  size: number,
  phrase: ReadonlySet<string>,
): F {
  const from = base as Record<string, Facet>;
  const out: Record<string, Facet> = {};
  for (const [name, facet] of Object.entries(changed as Record<string, Facet>))
    out[name] = patchFacet(from[name]!, facet, again, size, phrase.has(name));
  return out as F;
}

/** `base`'s bits outside `again`, and `changed`'s rows (a bitset or sorted rows, if any), over `size` rows. */
export function patchBits(base: Bitset, changed: Posting | undefined, again: Bitset, size: number): Bitset {
  const out = new Bitset(size);
  const w = out.words;
  const c = changed instanceof Bitset ? changed.words : undefined;
  for (let i = 0; i < w.length; i++) {
    w[i] = ((base.words[i] ?? 0) & ~(again.words[i] ?? 0)) | (c?.[i] ?? 0);
  }
  if (changed !== undefined && !(changed instanceof Bitset)) orInto(out, changed);
  return out;
}

/** A column by rowid: `base`'s, with the rows `again` taken from `changed` (0 for a row deleted). */
export function patchColumn<T extends Uint8Array | Uint16Array | Int32Array>(
  base: T,
  changed: T,
  again: readonly number[],
  size: number,
): T {
  const out = new (base.constructor as new (n: number) => T)(size);
  out.set(base.subarray(0, Math.min(base.length, size)));
  for (const r of again) if (r < size) out[r] = changed[r]!;
  return out;
}

/**
 * The rows a patched index takes from the changed index: those a delta wrote or deleted (`written`),
 * and, for each value of `facets` whose first row in the base (of `size` rows) is one of them, the
 * first of its rows that is not (its id and label come from that row now). Ascending.
 */
export function rowsToIndexAgain(
  facets: readonly Facet[],
  size: number,
  written: ReadonlySet<number>,
): number[] {
  let max = size;
  for (const r of written) if (r >= max) max = r + 1;
  const skip = bitsOf(written, max);
  const rows = new Set(written);
  for (const facet of facets) {
    for (const p of facet.postings) {
      const first = firstRow(p);
      if (first >= 0 && skip.has(first)) {
        const kept = firstRow(p, skip);
        if (kept >= 0) rows.add(kept);
      }
    }
  }
  return [...rows].sort((a, b) => a - b);
}
