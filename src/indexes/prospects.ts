/**
 * In-memory indexes over the `prospects` table, keyed by rowid. Company fields come from the columns the
 * loader derived from the prospect's business; categories are copied from the business index so a
 * prospect filter on `google_category` is one posting lookup. Built once per data version; after a
 * delta applied by this process, patched from the index saved before it (`prospect-patch.ts`).
 */
import type { Context } from '../runtime/context.js';
import { companyKey, foldText } from '../normalise/index.js';
import { JOB_DEPARTMENTS } from '../schemas/enums.js';
import { wireCodec, type ProspectFacets } from '../store/wire.js';
import { Bitset, type PostingBuilder } from './bitset.js';
import { partedForm } from './parted-form.js';
import { savedIndex, savedOnly, type SavedForm } from './persist.js';
import { rowsToIndexAgain } from './facet-patch.js';
import { patchProspectIndex } from './prospect-patch.js';
import { businessIndex, cityRegionCountryKeys, naicsPrefixes, type BusinessIndex } from './businesses.js';
import { groupByBusiness, type Csr } from './csr.js';
import { FacetBuilder, keysById, type Facet } from './facet.js';
import type { ProspectIndex } from './prospect-index.js';
import { countryId, regionId } from './labels.js';
import { buildRange } from './range.js';
import type { Db } from '../store/db.js';
import { DELTA_CHANGES, type DeltaChanges } from '../store/delta-changes.js';
import { getMeta } from '../store/open.js';
import { OTHER_NAMES_SCAN, SCAN_SQL } from '../store/sql/scans.js';
import { otherNamesOf } from './match/other-names.js';
import { ownString, prospectRows, type ProspectRow as Row } from './prospect-rows.js';

export type { ProspectIndex } from './prospect-index.js';

const DEPARTMENT_ID = new Map<string, number>(JOB_DEPARTMENTS.map((d, i) => [d, i + 1]));

/** A row of `SCAN_SQL.employers`: a business's columns its prospects' filters read. */
type Employer = [
  rowid: number,
  name: string | null,
  name_key: string | null,
  size: string | null,
  revenue: string | null,
  age: string | null,
  locations: string | null,
  country_code: string | null,
  region_country_code: string | null,
  city_region_country: string | null,
  city_name: string | null,
  naics: string | null,
  is_public: number | null,
  has_website: number | null,
];

/** What every prospect of one employer is added to (`employerOf` in the build). */
interface EmployerPostings {
  readonly postings: readonly PostingBuilder[];
  readonly isPublic: boolean;
  readonly hasWebsite: boolean;
}

/** A prospect without a stored employer: every employer column null, as a LEFT JOIN gives it. */
const NO_EMPLOYER = [0, ...Array<null>(13).fill(null)] as unknown as Employer;

export function prospectIndex(engine: Context): ProspectIndex {
  return engine.indexes.get(PROSPECT_INDEX);
}

type FacetName = keyof ProspectIndex['facets'];
const FACET_NAMES: readonly FacetName[] = [
  'country',
  'region',
  'companyCountry',
  'companyRegion',
  'cityRegionCountry',
  'size',
  'revenue',
  'age',
  'locations',
  'google',
  'linkedin',
  'naics',
  'jobLevel',
  'jobDepartment',
  'jobTitle',
  'skills',
  'interests',
  'companyName',
  'companyOtherName',
];
/** The index's parts other than the facets that are stored apart: each 1–16 MB at 1M prospects. */
const PARTS = [
  'totalExperience',
  'currentRole',
  'byBusiness',
  'countryOf',
  'regionOf',
  'departmentOf',
] as const;
/**
 * Saved in parts read on first access: the whole index is about 113 bytes per prospect, and a first
 * request reads only what its filters touch (a fetch by `has_contact_details` reads one bitset, not the
 * 19 facets and the range columns), so opening a large file and answering it no longer reads every part.
 */
export const PROSPECT_INDEX_FORM: SavedForm<ProspectIndex> = partedForm(
  'search.prospectIndex',
  FACET_NAMES,
  PARTS,
  (t) => typeof t.size === 'number' && t.all instanceof Bitset && t.hasEmail instanceof Bitset,
);

const PROSPECT_INDEX = savedIndex('search.prospectIndex', buildProspectIndex, PROSPECT_INDEX_FORM);

/**
 * Where a build reads its prospects: every stored one in rowid order ({@link fullScan}), or the few a
 * delta changed ({@link changedScan}). The same code then indexes either ({@link scanProspects}).
 */
interface ProspectScan {
  /** Max rowid + 1: the bit count of the index's bitsets. */
  readonly size: number;
  /** The rows, ascending by rowid. */
  readonly rows: Iterable<Row>;
  /** The `facets` blob of the row just given by `rows` (asked once per row, in turn). */
  facets(rowid: number): Buffer | null;
  /** A business's columns, by rowid (undefined: not stored). */
  employer(rowid: number): Employer | undefined;
  /** A business's other names with their company keys, by rowid. */
  otherNames(rowid: number): readonly (readonly [key: string, name: string])[] | undefined;
}

function buildProspectIndex(engine: Context): ProspectIndex {
  const db = engine.db;
  const changes = DELTA_CHANGES.prospects.take(db, getMeta(db, 'hash_prospects'));
  return (
    (changes && patchedProspectIndex(engine, changes)) ?? scanProspects(businessIndex(engine), fullScan(db))
  );
}

/** Maximum rowid + 1 of the prospects: the size of their index. */
const prospectIndexSize = (db: Db) => (db.prepare(SCAN_SQL.maxProspectRowid).get() as { m: number }).m + 1;

/** Every stored prospect, its employers and their other names each read once, in rowid order. */
function fullScan(db: Db): ProspectScan {
  // The other names of the businesses that have some, by business rowid: [key, name] pairs.
  const otherNames = new Map<number, [string, string][]>();
  for (const [rowid, column] of db.prepare(OTHER_NAMES_SCAN).raw().iterate() as IterableIterator<
    [number, string]
  >) {
    otherNames.set(rowid, otherNamePairs(column));
  }
  // Each business's columns, by rowid, read once (see `SCAN_SQL.prospectBlock`).
  const employers: Employer[] = [];
  for (const e of db.prepare(SCAN_SQL.employers).raw().iterate() as IterableIterator<Employer>) {
    employers[e[0]] = e;
  }
  const size = prospectIndexSize(db);
  return {
    size,
    rows: prospectRows(db, size - 1),
    facets: facetReader(db),
    employer: (rowid) => employers[rowid],
    otherNames: (rowid) => otherNames.get(rowid),
  };
}

/** The other names of a stored `other_names` column that have a company key, with it. */
function otherNamePairs(column: string | null): [string, string][] {
  const pairs: [string, string][] = [];
  for (const name of otherNamesOf(column)) {
    const k = companyKey(name);
    if (k) pairs.push([k, name]);
  }
  return pairs;
}

/**
 * The prospects at `rows` (ascending; a row no longer stored is skipped), each read by its rowid with
 * its employer: the rows a delta changed, for {@link patchedProspectIndex}.
 */
function changedScan(db: Db, rows: readonly number[]): ProspectScan {
  const prospect = db.prepare(SCAN_SQL.prospectRow).raw();
  const employer = db.prepare(SCAN_SQL.employer).raw();
  const otherNames = db.prepare(SCAN_SQL.otherNamesOf).pluck();
  const employers = new Map<number, Employer | undefined>();
  const others = new Map<number, [string, string][]>();
  let facets: Buffer | null = null;
  return {
    size: prospectIndexSize(db),
    rows: (function* () {
      for (const r of rows) {
        const values = prospect.get(r) as [...Row, Buffer | null] | undefined;
        if (!values) continue;
        facets = values.at(-1) as Buffer | null;
        yield values.slice(0, -1) as Row;
      }
    })(),
    facets: () => facets,
    employer: (rowid) => {
      if (!employers.has(rowid)) employers.set(rowid, employer.get(rowid) as Employer | undefined);
      return employers.get(rowid);
    },
    otherNames: (rowid) => {
      let pairs = others.get(rowid);
      if (!pairs) {
        pairs = otherNamePairs((otherNames.get(rowid) as string | null | undefined) ?? null);
        others.set(rowid, pairs);
      }
      return pairs;
    },
  };
}

/**
 * The index saved before a delta (read under the stamp it was saved with) patched for the prospect rows
 * the delta wrote or deleted (`changes`): those rows, and the first remaining row of each value whose
 * first row they held, are indexed on their own and merged in (`prospect-patch.ts`). Equal to a build
 * from every row, value ids and labels included; its cost follows the delta, but for word-wise passes
 * over the bitsets. `undefined` when the base's index is not saved (a build from every row then).
 */
export function patchedProspectIndex(engine: Context, changes: DeltaChanges): ProspectIndex | undefined {
  const base = savedOnly(engine, 'search.prospectIndex', PROSPECT_INDEX_FORM, changes.baseStamp);
  if (!base) return undefined;
  const bi = businessIndex(engine);
  const rows = rowsToIndexAgain(Object.values(base.facets) as Facet[], base.size, changes.rows);
  const changed = scanProspects(bi, changedScan(engine.db, rows));
  return patchProspectIndex(base, changed, rows, bi);
}

/** Indexes the prospects `scan` gives against the business index `bi`. */
function scanProspects(bi: BusinessIndex, scan: ProspectScan): ProspectIndex {
  const googleKeys = keysById(bi.facets.google);
  const linkedinKeys = keysById(bi.facets.linkedin);
  const size = scan.size;
  const all = new Bitset(size);
  const hasEmail = new Bitset(size);
  const hasPhone = new Bitset(size);
  const hasWebsite = new Bitset(size);
  const isPublic = new Bitset(size);
  const countryOf = new Uint8Array(size); // 250 country codes: a byte each
  const regionOf = new Uint16Array(size);
  const departmentOf = new Uint8Array(size);
  const experience: { row: number; value: number }[] = [];
  const role: { row: number; value: number }[] = [];
  const businesses = bi.size + 1;
  const businessOfRow = new Int32Array(size).fill(-1);
  const f = {
    country: new FacetBuilder(),
    region: new FacetBuilder(),
    companyCountry: new FacetBuilder(),
    companyRegion: new FacetBuilder(),
    cityRegionCountry: new FacetBuilder(),
    size: new FacetBuilder(),
    revenue: new FacetBuilder(),
    age: new FacetBuilder(),
    locations: new FacetBuilder(),
    google: new FacetBuilder(),
    linkedin: new FacetBuilder(),
    naics: new FacetBuilder(),
    jobLevel: new FacetBuilder(),
    jobDepartment: new FacetBuilder(),
    jobTitle: new FacetBuilder(),
    skills: new FacetBuilder(),
    interests: new FacetBuilder(),
    companyName: new FacetBuilder(),
    companyOtherName: new FacetBuilder(),
  };
  // Titles, skills and interests repeat across prospects: each distinct text is folded once, and kept
  // as a string of its own (the label a facet keeps must not hold a block of `prospectRows`).
  const folded = new Map<string, readonly [key: string, label: string]>();
  const fold = (v: string) => {
    let k = folded.get(v);
    if (k === undefined) {
      const own = ownString(v);
      folded.set(own, (k = [foldText(own), own]));
    }
    return k;
  };
  const texts = (b: FacetBuilder, values: readonly string[] | undefined, row: number) => {
    for (const v of values ?? []) {
      const [k, label] = fold(v);
      if (k) b.add(k, label, row);
    }
  };
  /** The postings of the values `csr` gives business `business` (its categories) in facet `b`. */
  const copied = (
    out: PostingBuilder[],
    b: FacetBuilder,
    csr: Csr,
    keys: string[],
    labels: readonly string[],
    business: number,
  ) => {
    if (business + 1 >= csr.start.length) return;
    for (let i = csr.start[business]!; i < csr.start[business + 1]!; i++) {
      const id = csr.ids[i]!;
      out.push(b.posting(keys[id]!, labels[id]!));
    }
  };
  /**
   * What a prospect takes from its employer (business rowid `b`, `e` its columns): the postings of the
   * company facets, in the order the values of each facet are met, and its two flags. Computed on the
   * employer's first prospect and shared by the others: at 1M prospects the company keys (folded
   * cities, NAICS prefixes, categories) were worked out again for each of them.
   */
  const employerOf = (b: number, e: Employer): EmployerPostings => {
    const [
      ,
      name,
      key,
      size,
      revenue,
      age,
      locations,
      country,
      region,
      crc,
      city,
      naics,
      isPublicCompany,
      hasSite,
    ] = e;
    const out: PostingBuilder[] = [];
    if (country) out.push(f.companyCountry.posting(country, country));
    if (region) out.push(f.companyRegion.posting(region, region));
    for (const k of cityRegionCountryKeys(city, region, country, crc)) {
      out.push(f.cityRegionCountry.posting(k, crc ?? k));
    }
    if (size) out.push(f.size.posting(size, size));
    if (revenue) out.push(f.revenue.posting(revenue, revenue));
    if (age) out.push(f.age.posting(age, age));
    if (locations) out.push(f.locations.posting(locations, locations));
    for (const p of naicsPrefixes(naics)) out.push(f.naics.posting(p, p));
    copied(out, f.google, bi.googleOf, googleKeys, bi.facets.google.labels, b);
    copied(out, f.linkedin, bi.linkedinOf, linkedinKeys, bi.facets.linkedin.labels, b);
    if (key && name) out.push(f.companyName.posting(key, name));
    for (const [k, other] of scan.otherNames(b) ?? []) out.push(f.companyOtherName.posting(k, other));
    return { postings: out, isPublic: Boolean(isPublicCompany), hasWebsite: Boolean(hasSite) };
  };
  const byEmployer: EmployerPostings[] = [];
  for (const [
    row,
    business_rowid,
    country_code,
    region_country_code,
    job_title,
    job_level,
    job_department,
    total_experience_months,
    current_role_months,
    has_email,
    has_phone,
  ] of scan.rows) {
    const employer =
      business_rowid === null
        ? undefined
        : (byEmployer[business_rowid] ??= employerOf(
            business_rowid,
            scan.employer(business_rowid) ?? NO_EMPLOYER,
          ));
    // The slim `facets` blob, not the full doc: the build decodes ~60 bytes per row instead of ~1.6 KB.
    const [levels, departments, skills, interests] = wireCodec.unpack(scan.facets(row)!) as ProspectFacets;
    all.add(row);
    if (has_email) hasEmail.add(row);
    if (has_phone) hasPhone.add(row);
    if (employer?.hasWebsite) hasWebsite.add(row);
    if (employer?.isPublic) isPublic.add(row);
    countryOf[row] = countryId(country_code);
    regionOf[row] = regionId(region_country_code);
    departmentOf[row] = (job_department && DEPARTMENT_ID.get(job_department)) || 0;
    if (total_experience_months !== null) experience.push({ row, value: total_experience_months });
    if (current_role_months !== null) role.push({ row, value: current_role_months });

    if (country_code) f.country.add(country_code, country_code, row);
    if (region_country_code) f.region.add(region_country_code, region_country_code, row);
    if (employer) {
      for (const p of employer.postings) p.push(row);
      const b = business_rowid!;
      if (b < businesses) {
        businessOfRow[row] = b;
      }
    }
    if (job_level) f.jobLevel.add(job_level, job_level, row);
    for (const l of levels) f.jobLevel.add(l, l, row);
    if (job_department) f.jobDepartment.add(job_department, job_department, row);
    for (const d of departments) f.jobDepartment.add(d, d, row);
    if (job_title) {
      const [k, label] = fold(job_title);
      if (k) f.jobTitle.add(k, label, row);
    }
    texts(f.skills, skills, row);
    texts(f.interests, interests, row);
  }

  const phrase = new Set(['jobTitle', 'skills', 'interests']);
  const facets = {} as ProspectIndex['facets'];
  for (const [name, b] of Object.entries(f) as [keyof typeof f, FacetBuilder][]) {
    facets[name] = b.finish(size, phrase.has(name));
  }
  return {
    size,
    all,
    facets,
    hasEmail,
    hasPhone,
    hasWebsite,
    isPublic,
    totalExperience: buildRange(experience, size),
    currentRole: buildRange(role, size),
    byBusiness: groupByBusiness(businessOfRow, businesses),
    countryOf,
    regionOf,
    departmentOf,
  };
}

/** Rowids of prospects whose `facets` one statement reads. */
const FACET_ROWS = 4096;

/**
 * The `facets` blob of each prospect, asked for in ascending rowid order, every stored row in turn (as
 * `prospectRows` gives them): read `rows` rowids at a time (`SCAN_SQL.prospectFacets`) and
 * handed out as views of that range's bytes. `null` for a row without one.
 */
export function facetReader(db: Context['db'], rows = FACET_ROWS): (row: number) => Buffer | null {
  const range = db.prepare(SCAN_SQL.prospectFacets).raw();
  let bytes: Buffer = Buffer.alloc(0);
  let lengths: number[] = [];
  let k = 0;
  let at = 0;
  let last = 0;
  return (row) => {
    if (row > last) {
      // The range starts at this row: the scan steps it and the rows after it, up to `last`.
      last = row + rows - 1;
      const [b, l] = range.get(row, last) as [Buffer | null, string | null];
      bytes = b ?? Buffer.alloc(0);
      lengths = l ? l.split(',').map(Number) : [];
      k = 0;
      at = 0;
    }
    const n = lengths[k++] ?? -1;
    if (n < 0) return null;
    at += n;
    return bytes.subarray(at - n, at);
  };
}
