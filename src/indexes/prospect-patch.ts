/**
 * The prospect search index after a delta, made from the index saved before it (the base) and an index
 * of the rows the delta changed alone (see `facet-patch.ts`): what `indexes/prospects.ts` does when a
 * delta of the same process left its changes (`store/delta-changes.ts`).
 */
import { Bitset, forEachFrom } from './bitset.js';
import type { BusinessIndex } from './business-index.js';
import { groupByBusiness, type Csr } from './csr.js';
import { bitsOf, patchBits, patchColumn, patchFacets } from './facet-patch.js';
import type { ProspectIndex } from './prospect-index.js';
import { buildRange, type RangeIndex } from './range.js';

/** The facets whose values a phrase finds (`FacetBuilder.finish`'s `phrase`). */
const PHRASE_FACETS: ReadonlySet<string> = new Set(['jobTitle', 'skills', 'interests']);
/** Facets labelled by the business index (a category's label there), not by a prospect's row. */
const CATEGORY_FACETS = ['google', 'linkedin'] as const;

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
  return groupByBusiness(businessOfRow, bi.size + 1);
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
  const facets = patchFacets(base.facets, changed.facets, skip, size, PHRASE_FACETS);
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
