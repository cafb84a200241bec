/**
 * The shape of the prospect search index (built in `prospects.ts`, patched after a delta in
 * `prospect-patch.ts`): in-memory postings and columns over the `prospects` table, keyed by rowid.
 */
import type { Bitset } from './bitset.js';
import type { Csr } from './csr.js';
import type { Facet } from './facet.js';
import type { RangeIndex } from './range.js';

export interface ProspectIndex {
  readonly size: number;
  readonly all: Bitset;
  readonly facets: {
    country: Facet;
    region: Facet;
    companyCountry: Facet;
    companyRegion: Facet;
    cityRegionCountry: Facet;
    size: Facet;
    revenue: Facet;
    age: Facet;
    locations: Facet;
    google: Facet;
    linkedin: Facet;
    naics: Facet;
    jobLevel: Facet;
    jobDepartment: Facet;
    jobTitle: Facet;
    skills: Facet;
    interests: Facet;
    /** Key: the company key (`companyKey` of the business name); label: the name. */
    companyName: Facet;
    /** Key: the company key of each other name of the business (`other_names`); label: that name. */
    companyOtherName: Facet;
  };
  readonly hasEmail: Bitset;
  readonly hasPhone: Bitset;
  readonly hasWebsite: Bitset;
  readonly isPublic: Bitset;
  readonly totalExperience: RangeIndex;
  readonly currentRole: RangeIndex;
  /** Prospects of each business rowid: `rows[start[b] .. start[b + 1])`. */
  readonly byBusiness: Csr;
  /** Stats columns (1-based codes, 0 = none): prospect location and main department. */
  readonly countryOf: Uint8Array;
  readonly regionOf: Uint16Array;
  readonly departmentOf: Uint8Array;
}
