/**
 * The prospect search index after a delta, made from the index saved before it (the base) and an index
 * of the rows the delta changed alone, instead of from every row: what `indexes/prospects.ts` does when a
 * delta of the same process left its changes (`store/delta-changes.ts`).
 *
 * The result equals a build from every row, value ids and labels included. A full build numbers a
 * facet's values as their first rows come, and labels each with the spelling of its first row. So a
 * value whose first row the delta changed gets its new first row from elsewhere: the first of its base
 * rows the delta left alone is indexed again with the changed rows ({@link rowsToIndexAgain}). Then a
 * value's first row is either a base row the delta left alone whose ids and labels the base already had
 * right, or an indexed-again row whose ids and labels the changed index has; ordering the values by first
 * row (then by id, for values first met on the same row) gives the full build's numbering.
 */
import { Bitset, forEachFrom, postingOf, type Posting } from './bitset.js';
import type { BusinessIndex } from './businesses.js';
import type { Csr } from './csr.js';
import { phraseWords, type Facet } from './facet.js';
import type { ProspectIndex } from './prospect-index.js';
import { buildRange, type RangeIndex } from './range.js';

/** The facets whose values a phrase finds (`FacetBuilder.finish`'s `phrase`). */
const PHRASE_FACETS: ReadonlySet<string> = new Set(['jobTitle', 'skills', 'interests']);
/** Facets labelled by the business index (a category's label there), not by a prospect's row. */
const CATEGORY_FACETS = ['google', 'linkedin'] as const;

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

const bitsOf = (rows: Iterable<number>, size: number): Bitset => {
  const b = new Bitset(size);
  for (const r of rows) b.add(r);
  return b;
};

/**
 * The rows the patched index takes from the changed index: those a delta wrote or deleted (`written`),
 * and, for each value whose first row in `base` is one of them, the first of its rows that is not (its
 * id and label come from that row now). Ascending.
 */
export function rowsToIndexAgain(base: ProspectIndex, written: ReadonlySet<number>): number[] {
  let max = base.size;
  for (const r of written) if (r >= max) max = r + 1;
  const skip = bitsOf(written, max);
  const rows = new Set(written);
  for (const facet of Object.values(base.facets) as Facet[]) {
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
function patchFacet(base: Facet, changed: Facet, again: Bitset, size: number, phrase: boolean): Facet {
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

/** `base`'s bits outside `again`, and `changed`'s, over `size` rows. */
function patchBits(base: Bitset, changed: Bitset, again: Bitset, size: number): Bitset {
  const out = new Bitset(size);
  const w = out.words;
  for (let i = 0; i < w.length; i++) {
    w[i] = ((base.words[i] ?? 0) & ~(again.words[i] ?? 0)) | (changed.words[i] ?? 0);
  }
  return out;
}

/** A column by rowid: `base`'s, with the rows `again` taken from `changed` (0 for a row deleted). */
function patchColumn<T extends Uint8Array | Uint16Array>(
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

/** A range index over `base`'s entries outside `again` and `changed`'s, as a build adds them. */
function patchRange(base: RangeIndex, changed: RangeIndex, again: Bitset, size: number): RangeIndex {
  const has = new Bitset(size);
  const value = new Int32Array(size);
  for (let i = 0; i < base.rows.length; i++) {
    const r = base.rows[i]!;
    if (r < size && !again.has(r)) {
      has.add(r);
      value[r] = base.values[i]!;
    }
  }
  for (let i = 0; i < changed.rows.length; i++) {
    has.add(changed.rows[i]!);
    value[changed.rows[i]!] = changed.values[i]!;
  }
  const entries: { row: number; value: number }[] = [];
  forEachFrom(has, 0, (row) => void entries.push({ row, value: value[row]! }));
  return buildRange(entries, size);
}

/** The prospects of each business, `base`'s outside `again` and `changed`'s (`byBusiness`). */
function patchByBusiness(base: Csr, changed: Csr, again: Bitset, size: number, bi: BusinessIndex): Csr {
  const businessOfRow = new Int32Array(size).fill(-1);
  const from = (csr: Csr, skip?: Bitset) => {
    for (let b = 0; b + 1 < csr.start.length; b++) {
      for (let i = csr.start[b]!; i < csr.start[b + 1]!; i++) {
        const row = csr.ids[i]!;
        if (!skip?.has(row)) businessOfRow[row] = b;
      }
    }
  };
  from(base, again);
  from(changed);
  // As the build groups them: a counting sort by business rowid, rows ascending in each group.
  const businesses = bi.size + 1;
  const start = new Uint32Array(businesses + 1);
  for (let row = 0; row < size; row++) {
    const b = businessOfRow[row]!;
    if (b >= 0) start[b + 1]!++;
  }
  for (let b = 0; b < businesses; b++) start[b + 1]! += start[b]!;
  const fill = start.slice(0, businesses);
  const ids = new Uint32Array(start[businesses]!);
  for (let row = 0; row < size; row++) {
    const b = businessOfRow[row]!;
    if (b >= 0) ids[fill[b]!++] = row;
  }
  return { start, ids };
}

/**
 * `base` (the index before a delta) with the rows `again` (from {@link rowsToIndexAgain}) replaced by
 * those of `changed` (an index of those rows alone, built against the business index `bi` of the data
 * after the delta, and sized for it).
 */
export function patchProspectIndex(
  base: ProspectIndex,
  changed: ProspectIndex,
  again: readonly number[],
  bi: BusinessIndex,
): ProspectIndex {
  const size = changed.size;
  const skip = bitsOf(again, Math.max(size, base.size));
  const facets = {} as Record<keyof ProspectIndex['facets'], Facet>;
  for (const name of Object.keys(changed.facets) as (keyof ProspectIndex['facets'])[]) {
    facets[name] = patchFacet(base.facets[name], changed.facets[name], skip, size, PHRASE_FACETS.has(name));
  }
  // A category's label is the business index's, which the delta may have changed for rows it left alone.
  for (const name of CATEGORY_FACETS) {
    const labels = facets[name].labels as string[];
    const source = bi.facets[name];
    for (const [key, id] of facets[name].keys) labels[id] = source.labels[source.keys.get(key)!]!;
  }
  return {
    size,
    all: patchBits(base.all, changed.all, skip, size),
    facets,
    hasEmail: patchBits(base.hasEmail, changed.hasEmail, skip, size),
    hasPhone: patchBits(base.hasPhone, changed.hasPhone, skip, size),
    hasWebsite: patchBits(base.hasWebsite, changed.hasWebsite, skip, size),
    isPublic: patchBits(base.isPublic, changed.isPublic, skip, size),
    totalExperience: patchRange(base.totalExperience, changed.totalExperience, skip, size),
    currentRole: patchRange(base.currentRole, changed.currentRole, skip, size),
    byBusiness: patchByBusiness(base.byBusiness, changed.byBusiness, skip, size, bi),
    countryOf: patchColumn(base.countryOf, changed.countryOf, again, size),
    regionOf: patchColumn(base.regionOf, changed.regionOf, again, size),
    departmentOf: patchColumn(base.departmentOf, changed.departmentOf, again, size),
  };
}
