/**
 * In-memory indexes over the `businesses` table, keyed by rowid: one facet per filterable field (with
 * and without operating locations for the location filters), flags as bitsets, and dense code columns
 * for stats. Built once per data version through `engine.cached`; after a delta applied by this
 * process, patched from the index saved before it (`business-patch.ts`).
 */
import type { Context } from '../runtime/context.js';
import { companyKey, foldText } from '../normalise/index.js';
import { cityRegionCountry } from '../store/derive.js';
import { wireCodec, type BusinessFacets } from '../store/wire.js';
import { Bitset } from './bitset.js';
import { partedForm } from './parted-form.js';
import { savedIndex, savedOnly, type SavedForm } from './persist.js';
import { patchBusinessIndex } from './business-patch.js';
import { rowsToIndexAgain } from './facet-patch.js';
import { CsrBuilder } from './csr.js';
import type { BusinessIndex } from './business-index.js';
import { FacetBuilder, type Facet } from './facet.js';
import { countryId, regionId } from './labels.js';
import { otherNamesOf } from './match/other-names.js';
import { COMPANY_REVENUES, COMPANY_SIZES, type IntentLevel } from '../schemas/enums.js';
import { DELTA_CHANGES, type DeltaChanges } from '../store/delta-changes.js';
import { getMeta } from '../store/open.js';
import { SCAN_SQL } from '../store/sql/scans.js';

export type { BusinessIndex } from './business-index.js';

export const INTENT_RANK: Readonly<Record<IntentLevel, number>> = {
  emerging_intent: 0,
  high_intent: 1,
  very_high_intent: 2,
};

const SIZE_ID = new Map<string, number>(COMPANY_SIZES.map((s, i) => [s, i + 1]));
const REVENUE_ID = new Map<string, number>(COMPANY_REVENUES.map((s, i) => [s, i + 1]));

/**
 * A row of `SCAN_SQL.businesses`, read raw (an array: no object with named fields per row, ~0.3 s of a
 * 1M-prospect load's 100k businesses).
 */
type Row = [
  rowid: number,
  name: string,
  name_key: string,
  country_code: string | null,
  region_country_code: string | null,
  city_name: string | null,
  city_region: string | null,
  city_region_country: string | null,
  size: string | null,
  revenue: string | null,
  age: string | null,
  locations: string | null,
  naics: string | null,
  is_public: number,
  has_website: number,
  facets: Buffer,
  other_names: string | null,
];

/** Keys a `city_region_country` value can hit: the full label, and "city cc" without the region. */
export function cityRegionCountryKeys(
  city: string | null,
  region: string | null,
  country: string | null,
  label = cityRegionCountry(city, region, country),
): string[] {
  if (!label || !city || !country) return [];
  const full = foldText(label);
  const short = foldText(`${city} ${country}`);
  return full === short ? [full] : [full, short];
}

/** Every prefix of 2 to 6 digits of a NAICS code ("541512" → "54", "541", "5415", "54151", "541512"). */
export function naicsPrefixes(code: string | null): string[] {
  if (!code) return [];
  const out: string[] = [];
  for (let n = 2; n <= code.length && n <= 6; n++) out.push(code.slice(0, n));
  return out;
}

export function businessIndex(engine: Context): BusinessIndex {
  return engine.indexes.get(BUSINESS_INDEX);
}

const FACET_NAMES: readonly (keyof BusinessIndex['facets'])[] = [
  'country',
  'countryOps',
  'region',
  'regionOps',
  'cityRegionCountry',
  'cityRegionCountryOps',
  'cityRegion',
  'size',
  'revenue',
  'age',
  'locations',
  'google',
  'linkedin',
  'naics',
  'techCategory',
  'tech',
  'name',
  'otherName',
  'websiteKeywords',
  'intent',
  'intentTopic',
];
/** The stats columns, stored apart like the facets (the root keeps the size, flags and NAICS names). */
const PARTS = ['countryOf', 'regionOf', 'sizeOf', 'revenueOf', 'googleOf', 'linkedinOf', 'naicsOf'] as const;

/** Saved in parts read on first access (`parted-form.ts`): a fetch by country reads one facet. */
export const BUSINESS_INDEX_FORM: SavedForm<BusinessIndex> = partedForm(
  'search.businessIndex',
  FACET_NAMES,
  PARTS,
  (t) => typeof t.size === 'number' && t.all instanceof Bitset && t.naicsDescription instanceof Map,
);

const BUSINESS_INDEX = savedIndex('search.businessIndex', buildBusinessIndex, BUSINESS_INDEX_FORM);

function buildBusinessIndex(engine: Context): BusinessIndex {
  const db = engine.db;
  const changes = DELTA_CHANGES.businesses.take(db, getMeta(db, 'hash_businesses'));
  return (
    (changes && patchedBusinessIndex(engine, changes)) ??
    scanBusinesses(
      db.prepare(SCAN_SQL.businesses).raw().iterate() as IterableIterator<Row>,
      businessIndexSize(db),
    )
  );
}

/** Maximum rowid + 1 of the businesses: the size of their index. */
const businessIndexSize = (db: Context['db']) =>
  (db.prepare(SCAN_SQL.maxBusinessRowid).get() as { m: number }).m + 1;

/**
 * The index saved before a delta (read under the stamp it was saved with) patched for the business
 * rows the delta wrote or deleted (`changes`; see `facet-patch.ts`): equal to a build from every row.
 * `undefined` when the base's index is not saved (a build from every row then).
 */
export function patchedBusinessIndex(engine: Context, changes: DeltaChanges): BusinessIndex | undefined {
  const base = savedOnly(engine, 'search.businessIndex', BUSINESS_INDEX_FORM, changes.baseStamp);
  if (!base) return undefined;
  const db = engine.db;
  const size = businessIndexSize(db);
  const rows = rowsToIndexAgain(Object.values(base.facets) as Facet[], base.size, changes.rows);
  const row = db.prepare(SCAN_SQL.businessRow).raw();
  const changed = scanBusinesses(
    (function* () {
      for (const r of rows) {
        const values = row.get(r) as Row | undefined;
        if (values) yield values;
      }
    })(),
    size,
  );
  const facets = db.prepare(SCAN_SQL.businessFacets).pluck();
  const naicsText = (r: number) => {
    const blob = facets.get(r) as Buffer | undefined;
    return blob ? ((wireCodec.unpack(blob) as BusinessFacets)[3] ?? undefined) : undefined;
  };
  return patchBusinessIndex(base, changed, rows, naicsText);
}

/** Indexes the businesses `rows` gives (ascending by rowid) into an index of `size` rows. */
function scanBusinesses(rows: Iterable<Row>, size: number): BusinessIndex {
  const all = new Bitset(size);
  const hasWebsite = new Bitset(size);
  const isPublic = new Bitset(size);
  const countryOf = new Uint8Array(size); // 250 country codes: a byte each
  const regionOf = new Uint16Array(size);
  const sizeOf = new Uint8Array(size);
  const revenueOf = new Uint8Array(size);
  const naicsOf = new Int32Array(size);
  const naicsDescription = new Map<string, string>();
  const f = {
    country: new FacetBuilder(),
    countryOps: new FacetBuilder(),
    region: new FacetBuilder(),
    regionOps: new FacetBuilder(),
    cityRegionCountry: new FacetBuilder(),
    cityRegionCountryOps: new FacetBuilder(),
    cityRegion: new FacetBuilder(),
    size: new FacetBuilder(),
    revenue: new FacetBuilder(),
    age: new FacetBuilder(),
    locations: new FacetBuilder(),
    google: new FacetBuilder(),
    linkedin: new FacetBuilder(),
    naics: new FacetBuilder(),
    techCategory: new FacetBuilder(),
    tech: new FacetBuilder(),
    name: new FacetBuilder(),
    otherName: new FacetBuilder(),
    websiteKeywords: new FacetBuilder(),
    intent: new FacetBuilder(),
    intentTopic: new FacetBuilder(),
  };
  const googleOf = new CsrBuilder();
  const linkedinOf = new CsrBuilder();
  // Categories, technologies, keywords and topics repeat across businesses: each distinct text is
  // folded once.
  const folded = new Map<string, string>();
  const fold = (v: string) => {
    let k = folded.get(v);
    if (k === undefined) folded.set(v, (k = foldText(v)));
    return k;
  };
  const texts = (b: FacetBuilder, values: readonly string[] | undefined, row: number) => {
    const ids = new Set<number>();
    for (const v of values ?? []) {
      const k = fold(v);
      if (k) ids.add(b.add(k, v, row));
    }
    return ids;
  };

  for (const [
    row,
    name,
    nameKey,
    countryCode,
    regionCountryCode,
    cityName,
    cityRegion,
    hqLabel,
    companySize,
    revenue,
    age,
    locationCount,
    naics,
    isPublicCompany,
    hasSite,
    blob,
    otherNames,
  ] of rows) {
    // The slim `facets` blob, not the full doc (which carries the large `enrichments` payloads).
    const [locations, google, linkedin, naicsText, techCategories, tech, keywords, intents] =
      wireCodec.unpack(blob) as BusinessFacets;
    all.add(row);
    if (hasSite) hasWebsite.add(row);
    if (isPublicCompany) isPublic.add(row);
    countryOf[row] = countryId(countryCode);
    regionOf[row] = regionId(regionCountryCode);
    sizeOf[row] = (companySize && SIZE_ID.get(companySize)) || 0;
    revenueOf[row] = (revenue && REVENUE_ID.get(revenue)) || 0;

    if (countryCode) {
      f.country.add(countryCode, countryCode, row);
      f.countryOps.add(countryCode, countryCode, row);
    }
    if (regionCountryCode) {
      f.region.add(regionCountryCode, regionCountryCode, row);
      f.regionOps.add(regionCountryCode, regionCountryCode, row);
    }
    for (const k of cityRegionCountryKeys(cityName, regionCountryCode, countryCode, hqLabel)) {
      f.cityRegionCountry.add(k, hqLabel ?? k, row);
      f.cityRegionCountryOps.add(k, hqLabel ?? k, row);
    }
    for (const [country, region, city] of locations) {
      if (country) f.countryOps.add(country, country, row);
      if (region) f.regionOps.add(region, region, row);
      const label = cityRegionCountry(city, region, country);
      for (const k of cityRegionCountryKeys(city, region, country, label)) {
        f.cityRegionCountryOps.add(k, label ?? k, row);
      }
    }
    if (cityRegion) {
      const k = fold(cityRegion);
      if (k) f.cityRegion.add(k, cityRegion, row);
    }
    if (companySize) f.size.add(companySize, companySize, row);
    if (revenue) f.revenue.add(revenue, revenue, row);
    if (age) f.age.add(age, age, row);
    if (locationCount) f.locations.add(locationCount, locationCount, row);
    for (const id of texts(f.google, google, row)) googleOf.add(row, id);
    for (const id of texts(f.linkedin, linkedin, row)) linkedinOf.add(row, id);
    for (const p of naicsPrefixes(naics)) f.naics.add(p, p, row);
    if (naics) {
      naicsOf[row] = Number(naics);
      if (naicsText && !naicsDescription.has(naics)) naicsDescription.set(naics, naicsText);
    }
    texts(f.techCategory, techCategories, row);
    texts(f.tech, tech, row);
    if (nameKey) f.name.add(nameKey, name, row);
    for (const other of otherNamesOf(otherNames)) {
      const k = companyKey(other);
      if (k) f.otherName.add(k, other, row);
    }
    texts(f.websiteKeywords, keywords, row);
    for (const [topic, level] of intents) {
      const k = fold(topic);
      if (!k) continue;
      f.intent.add(`${k}|${level}`, topic, row);
      f.intentTopic.add(k, topic, row);
    }
  }

  const facets = {} as BusinessIndex['facets'];
  for (const [name, b] of Object.entries(f) as [keyof typeof f, FacetBuilder][]) {
    facets[name] = b.finish(size, name === 'websiteKeywords' || name === 'intentTopic');
  }
  return {
    size,
    all,
    facets,
    hasWebsite,
    isPublic,
    countryOf,
    regionOf,
    sizeOf,
    revenueOf,
    googleOf: googleOf.finish(size),
    linkedinOf: linkedinOf.finish(size),
    naicsOf,
    naicsDescription,
  };
}
