/**
 * The business search index after a delta, made from the index saved before it (the base) and an index
 * of the rows the delta changed alone (see `facet-patch.ts`): what `indexes/businesses.ts` does when a
 * delta of the same process left its changes (`store/delta-changes.ts`).
 */
import type { Bitset } from './bitset.js';
import type { BusinessIndex } from './business-index.js';
import { CsrBuilder, type Csr } from './csr.js';
import { keysById, type Facet } from './facet.js';
import { bitsOf, patchBits, patchColumn, patchFacets } from './facet-patch.js';

/** The facets whose values a phrase finds (`FacetBuilder.finish`'s `phrase`). */
const PHRASE_FACETS: ReadonlySet<string> = new Set(['websiteKeywords', 'intentTopic']);

/**
 * A row → value ids column (`googleOf`) over the patched facet `facet`: `base`'s rows outside `again`
 * and `changed`'s, each id turned into the patched facet's id of the same key (row order kept).
 */
function patchValueIds(
  base: Csr,
  baseFacet: Facet,
  changed: Csr,
  changedFacet: Facet,
  facet: Facet,
  again: Bitset,
  size: number,
): Csr {
  const baseKeys = keysById(baseFacet);
  const changedKeys = keysById(changedFacet);
  const out = new CsrBuilder();
  for (let row = 0; row < size; row++) {
    const [csr, keys] = again.has(row) ? [changed, changedKeys] : [base, baseKeys];
    if (row + 1 >= csr.start.length) continue;
    for (let i = csr.start[row]!; i < csr.start[row + 1]!; i++)
      out.add(row, facet.keys.get(keys[csr.ids[i]!]!)!);
  }
  return out.finish(size);
}

/**
 * NAICS code → description: the text of the first row of the code that has one. A code no row of
 * `again` had or has keeps the base's; the others are looked for again, row by row (`naicsText` reads a
 * row's text from the table).
 */
function patchDescriptions(
  base: BusinessIndex,
  changed: BusinessIndex,
  again: readonly number[],
  skip: Bitset,
  naicsText: (row: number) => string | null | undefined,
): Map<string, string> {
  const touched = new Set<number>();
  for (const r of again) {
    if (r < base.naicsOf.length && base.naicsOf[r]) touched.add(base.naicsOf[r]!);
    if (r < changed.naicsOf.length && changed.naicsOf[r]) touched.add(changed.naicsOf[r]!);
  }
  const out = new Map<string, string>();
  for (const [code, text] of base.naicsDescription) if (!touched.has(Number(code))) out.set(code, text);
  const open = new Set(touched);
  for (let row = 0; row < changed.size && open.size > 0; row++) {
    const code = skip.has(row) ? changed.naicsOf[row]! : (base.naicsOf[row] ?? 0);
    if (!open.has(code)) continue;
    const text = naicsText(row);
    if (!text) continue;
    out.set(String(code), text);
    open.delete(code);
  }
  return out;
}

/**
 * `base` (the index before a delta) with the rows `again` (from `rowsToIndexAgain`) replaced by those
 * of `changed` (an index of those rows alone, sized for the data after the delta).
 */
export function patchBusinessIndex(
  base: BusinessIndex,
  changed: BusinessIndex,
  again: readonly number[],
  naicsText: (row: number) => string | null | undefined,
): BusinessIndex {
  const size = changed.size;
  const skip = bitsOf(again, Math.max(size, base.size));
  const facets = patchFacets(base.facets, changed.facets, skip, size, PHRASE_FACETS);
  const valueIds = (name: 'google' | 'linkedin', of: 'googleOf' | 'linkedinOf') =>
    patchValueIds(base[of], base.facets[name], changed[of], changed.facets[name], facets[name], skip, size);
  return {
    size,
    all: patchBits(base.all, changed.all, skip, size),
    facets,
    hasWebsite: patchBits(base.hasWebsite, changed.hasWebsite, skip, size),
    isPublic: patchBits(base.isPublic, changed.isPublic, skip, size),
    countryOf: patchColumn(base.countryOf, changed.countryOf, again, size),
    regionOf: patchColumn(base.regionOf, changed.regionOf, again, size),
    sizeOf: patchColumn(base.sizeOf, changed.sizeOf, again, size),
    revenueOf: patchColumn(base.revenueOf, changed.revenueOf, again, size),
    googleOf: valueIds('google', 'googleOf'),
    linkedinOf: valueIds('linkedin', 'linkedinOf'),
    naicsOf: patchColumn(base.naicsOf, changed.naicsOf, again, size),
    naicsDescription: patchDescriptions(base, changed, again, skip, naicsText),
  };
}
