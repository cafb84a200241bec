/**
 * The shape of the business search index (built in `businesses.ts`, patched after a delta in
 * `business-patch.ts`): in-memory postings and columns over the `businesses` table, keyed by rowid.
 */
import type { Bitset } from './bitset.js';
import type { Csr } from './csr.js';
import type { Facet } from './facet.js';

export interface BusinessIndex {
  /** Max rowid + 1: the bit count of every bitset. */
  readonly size: number;
  readonly all: Bitset;
  readonly facets: {
    country: Facet;
    countryOps: Facet;
    region: Facet;
    regionOps: Facet;
    cityRegionCountry: Facet;
    cityRegionCountryOps: Facet;
    cityRegion: Facet;
    size: Facet;
    revenue: Facet;
    age: Facet;
    locations: Facet;
    google: Facet;
    linkedin: Facet;
    naics: Facet;
    techCategory: Facet;
    tech: Facet;
    name: Facet;
    /** Key: the company key (`companyKey`) of each other name (`other_names`); label: that name. */
    otherName: Facet;
    websiteKeywords: Facet;
    /** Key `folded topic|level`. */
    intent: Facet;
    /** Key folded topic; labels are the topics as written (autocomplete). */
    intentTopic: Facet;
  };
  readonly hasWebsite: Bitset;
  readonly isPublic: Bitset;
  /** Stats columns: 1-based codes, 0 = none. */
  readonly countryOf: Uint8Array;
  readonly regionOf: Uint16Array;
  readonly sizeOf: Uint8Array;
  readonly revenueOf: Uint8Array;
  readonly googleOf: Csr;
  readonly linkedinOf: Csr;
  /** 6-digit (or shorter) NAICS code of each row; 0 = none. */
  readonly naicsOf: Int32Array;
  /** NAICS code → description, for autocomplete. */
  readonly naicsDescription: ReadonlyMap<string, string>;
}
