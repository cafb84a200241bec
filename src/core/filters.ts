/**
 * Filters → the set of matching rowids, as a bitset. Values inside one filter are OR'ed, filters are
 * AND'ed, `negate` takes the complement.
 *
 * Readings where the spec is silent:
 * - A filter whose `values` list is empty constrains nothing (it is skipped, negated or not).
 * - `has_email`, `has_phone_number` and `has_contact_details` count any e-mail or phone the record holds.
 * - `job_level` and `job_department` match the main value or any value of the `_array` field.
 * - `job_title`, `skills`, `interests` and `website_keywords` match a phrase inside a value: whole words,
 *   case, accents and punctuation folded ("machine learning" matches "Senior Machine Learning Engineer").
 *   `operator: "and"` requires every phrase (each in any value); the default `"or"` any phrase.
 * - `include_related_job_titles` widens each title phrase to its group of related titles
 *   (`src/indexes/related-titles.ts`); with `operator: "and"` each phrase's group must match.
 * - `company_name` (prospects and businesses) matches the normalised company name: legal suffixes, case,
 *   accents and punctuation folded (`companyKey`), so "Acme Robotics" finds "Acme Robotics, Inc."; a legal
 *   form written in front ("N.V. Brightwell") also reads as the name without it (`companyFilterKeys`).
 *   A business's other names (`other_names`: a former legal name, a trading name …) match as its name
 *   does, so "Koninklijke Hoogovens" finds the business whose current name is another.
 * - `google_category`, `linkedin_category`, `company_tech_stack_*`, `city_region` match a whole value,
 *   case and punctuation folded. `naics_category` matches codes starting with the given 2–6 digits.
 * - `city_region_country` matches the folded label "City, RR, CC" (region only for US, CA, AU) or
 *   "City, CC" (so "Miami, US" also finds "Miami, FL, US"); for prospects it is the company's
 *   headquarters location, as the docs say.
 * - `business_intent_topics` matches a topic (folded) at `topic_intent_level` or higher; no level means any.
 * - `events` matches businesses with an event of one of the types at or after the engine's clock minus
 *   `last_occurrence` days.
 * - `include_operating_locations` (businesses) widens `country_code`, `region_country_code` and
 *   `city_region_country` to operating locations. Default true in v1, false in v2; its `negate` is ignored.
 * - `has_website: {value: false}` selects records without one; `negate` then inverts that again.
 * - `negate` returns exactly the complement of the positive set, including records lacking the field.
 */
import type { Context } from '../runtime/context.js';
import { Bitset, andInto, andNotInto, orInto, type Posting } from '../indexes/bitset.js';
import { businessIndex, INTENT_RANK, type BusinessIndex } from '../indexes/businesses.js';
import { businessEventIndex, businessesWithEvents } from '../indexes/events.js';
import { phraseValues, unionKeys, unionValues, type Facet } from '../indexes/facet.js';
import { prospectIndex, type ProspectIndex } from '../indexes/prospects.js';
import { rangeRows, type RangeIndex } from '../indexes/range.js';
import { borrow, borrowCopy, release } from '../indexes/scratch.js';
import { relatedTitles } from '../indexes/related-titles.js';
import { companyFilterKeys, foldText } from '../normalise/index.js';
import { INTENT_LEVELS } from '../schemas/enums.js';
import type { AnyProspectFilters, BusinessFilters, ExistsFilter, RangeFilter } from '../schemas/filters.js';
import { searchStatements } from '../store/sql/search.js';

const DAY_MS = 86_400_000;

const statements = (engine: Context) => searchStatements(engine.db);

/** Rowids of the given prospect ids (unknown ids are skipped). */
export function prospectRowids(engine: Context, ids: readonly string[]): number[] {
  if (ids.length === 0) return [];
  return statements(engine).prospectRows.all(JSON.stringify(ids)) as number[];
}

/** Rowids of the given business ids (unknown ids are skipped). */
export function businessRowids(engine: Context, ids: readonly string[]): number[] {
  if (ids.length === 0) return [];
  return statements(engine).businessRows.all(JSON.stringify(ids)) as number[];
}

interface Filter {
  negate?: boolean | null;
}

/** AND-accumulates filters into a copy of the universe (lent bitsets: see `indexes/scratch.ts`). */
class Accumulator {
  readonly acc: Bitset;
  /** Scratch space for one filter's positive set, reused by every filter of the request. */
  private spare: Bitset | undefined;
  constructor(
    private readonly engine: Context,
    all: Bitset,
  ) {
    this.acc = borrowCopy(engine, all);
  }
  apply(filter: Filter, positive: Bitset): void {
    if (filter.negate) andNotInto(this.acc, positive);
    else andInto(this.acc, positive);
  }
  /** The cleared scratch bitset. */
  scratch(): Bitset {
    if (this.spare) this.spare.words.fill(0);
    else this.spare = borrow(this.engine, this.acc.size);
    return this.spare;
  }
  /**
   * Applies the union of the postings of `keys` in `facet` (and in `also`, when given); a lone dense
   * posting is used as it is.
   */
  applyKeys(filter: Filter, facet: Facet, keys: readonly string[], also?: Facet): void {
    const postings: Posting[] = [];
    for (const f of also ? [facet, also] : [facet]) {
      for (const k of keys) {
        const id = f.keys.get(k);
        if (id !== undefined) postings.push(f.postings[id]!);
      }
    }
    const only = postings.length === 1 ? postings[0] : undefined;
    if (only instanceof Bitset) return this.apply(filter, only);
    const union = this.scratch();
    for (const p of postings) orInto(union, p);
    this.apply(filter, union);
  }
  /** Applies a `{gte, lte}` filter of a range index. */
  applyRange(filter: Filter & RangeFilter, index: RangeIndex): void {
    this.apply(
      filter,
      rangeRows(index, this.acc.size, filter.gte ?? null, filter.lte ?? null, this.scratch()),
    );
  }
  /** The matching set (lent: the caller may `release` it when done). */
  finish(): Bitset {
    release(this.engine, this.spare);
    return this.acc;
  }
}

const has = <T extends { values: readonly unknown[] }>(f: T | null | undefined): f is T =>
  f !== null && f !== undefined && f.values.length > 0;

function fromRows(size: number, rows: Iterable<number>): Bitset {
  const b = new Bitset(size);
  for (const r of rows) if (r < size) b.add(r);
  return b;
}

function exists(flag: Bitset, all: Bitset, f: ExistsFilter): Bitset {
  if (f.value) return flag;
  const out = all.clone();
  andNotInto(out, flag);
  return out;
}

/** Rows holding any (or, with operator "and", every) phrase group; each group is OR'ed inside. */
function phraseGroups(
  facet: Facet,
  size: number,
  groups: string[][],
  operator: 'or' | 'and' | null | undefined,
) {
  const sets = groups.map((group) => {
    const ids = new Set<number>();
    for (const p of group) for (const id of phraseValues(facet, p)) ids.add(id);
    return unionValues(facet, ids, size);
  });
  if (operator === 'and') {
    const out = sets[0]!;
    for (let i = 1; i < sets.length; i++) andInto(out, sets[i]!);
    return out;
  }
  const out = sets[0]!;
  for (let i = 1; i < sets.length; i++) orInto(out, sets[i]!);
  return out;
}

const folded = (values: readonly string[]) => values.map(foldText);

/** The set of prospects matching `filters` (v1 or v2 shape), as a lent bitset (not the entity matcher: `core/match`). */
export function prospectFilterSet(engine: Context, filters: AnyProspectFilters | null | undefined): Bitset {
  const ix = prospectIndex(engine);
  const out = new Accumulator(engine, ix.all);
  if (!filters) return out.finish();
  const f = filters as Partial<
    AnyProspectFilters & { has_email: ExistsFilter | null; has_phone_number: ExistsFilter | null }
  >;
  const { size, facets } = ix;
  const keys = (filter: Filter & { values: readonly string[] }, facet: Facet, map?: (v: string) => string) =>
    out.applyKeys(filter, facet, map ? filter.values.map(map) : filter.values);

  if (has(f.prospect_id))
    out.apply(f.prospect_id, fromRows(size, prospectRowids(engine, f.prospect_id.values)));
  if (f.has_email) out.apply(f.has_email, exists(ix.hasEmail, ix.all, f.has_email));
  if (f.has_phone_number) out.apply(f.has_phone_number, exists(ix.hasPhone, ix.all, f.has_phone_number));
  if (f.has_contact_details)
    out.apply(f.has_contact_details, contactDetails(ix, f.has_contact_details.value));
  if (has(f.job_level)) keys(f.job_level, facets.jobLevel);
  if (has(f.job_department)) keys(f.job_department, facets.jobDepartment);
  if (has(f.business_id)) {
    const set = new Bitset(size);
    const { start, ids } = ix.byBusiness;
    for (const b of businessRowids(engine, f.business_id.values)) {
      if (b + 1 >= start.length) continue;
      for (let i = start[b]!; i < start[b + 1]!; i++) set.add(ids[i]!);
    }
    out.apply(f.business_id, set);
  }
  if (f.total_experience_months) out.applyRange(f.total_experience_months, ix.totalExperience);
  if (f.current_role_months) out.applyRange(f.current_role_months, ix.currentRole);
  if (has(f.country_code)) keys(f.country_code, facets.country);
  if (has(f.region_country_code)) keys(f.region_country_code, facets.region);
  if (has(f.company_country_code)) keys(f.company_country_code, facets.companyCountry);
  if (has(f.company_region_country_code)) keys(f.company_region_country_code, facets.companyRegion);
  if (has(f.city_region_country)) keys(f.city_region_country, facets.cityRegionCountry, foldText);
  if (has(f.company_size)) keys(f.company_size, facets.size);
  if (has(f.company_revenue)) keys(f.company_revenue, facets.revenue);
  if (has(f.company_age)) keys(f.company_age, facets.age);
  if (has(f.company_number_of_locations)) keys(f.company_number_of_locations, facets.locations);
  if (has(f.google_category)) keys(f.google_category, facets.google, foldText);
  if (has(f.naics_category)) keys(f.naics_category, facets.naics);
  if (has(f.linkedin_category)) keys(f.linkedin_category, facets.linkedin, foldText);
  if (has(f.job_title)) {
    const groups = f.job_title.values.map((v) =>
      f.job_title!.include_related_job_titles ? relatedTitles(v) : [v],
    );
    out.apply(f.job_title, phraseGroups(facets.jobTitle, size, groups, f.job_title.operator));
  }
  if (has(f.skills))
    out.apply(
      f.skills,
      phraseGroups(
        facets.skills,
        size,
        f.skills.values.map((v) => [v]),
        f.skills.operator,
      ),
    );
  if (has(f.interests)) {
    out.apply(
      f.interests,
      phraseGroups(
        facets.interests,
        size,
        f.interests.values.map((v) => [v]),
        f.interests.operator,
      ),
    );
  }
  if (has(f.company_name)) {
    const keys = f.company_name.values.flatMap(companyFilterKeys);
    out.applyKeys(f.company_name, facets.companyName, keys, facets.companyOtherName);
  }
  if (f.has_website) out.apply(f.has_website, exists(ix.hasWebsite, ix.all, f.has_website));
  if (f.is_public_company) out.apply(f.is_public_company, exists(ix.isPublic, ix.all, f.is_public_company));
  return out.finish();
}

function contactDetails(
  ix: ProspectIndex,
  value: 'email' | 'phone' | 'email_or_phone' | 'email_and_phone',
): Bitset {
  if (value === 'email') return ix.hasEmail;
  if (value === 'phone') return ix.hasPhone;
  const out = ix.hasEmail.clone();
  if (value === 'email_or_phone') orInto(out, ix.hasPhone);
  else andInto(out, ix.hasPhone);
  return out;
}

/** Whether location filters also look at operating locations (v1 default true, v2 default false). */
export function includeOperatingLocations(
  filters: BusinessFilters | null | undefined,
  version: 1 | 2,
): boolean {
  const f = filters?.include_operating_locations;
  if (f) return f.value;
  return version === 1;
}

/** The set of businesses matching `filters`, as a lent bitset (not the entity matcher: `core/match`); `version` picks the `include_operating_locations` default. */
export function businessFilterSet(
  engine: Context,
  filters: BusinessFilters | null | undefined,
  version: 1 | 2,
): Bitset {
  const ix: BusinessIndex = businessIndex(engine);
  const out = new Accumulator(engine, ix.all);
  if (!filters) return out.finish();
  const f = filters;
  const { size, facets } = ix;
  const ops = includeOperatingLocations(f, version);
  const keys = (filter: Filter & { values: readonly string[] }, facet: Facet, map?: (v: string) => string) =>
    out.applyKeys(filter, facet, map ? filter.values.map(map) : filter.values);

  if (has(f.business_id))
    out.apply(f.business_id, fromRows(size, businessRowids(engine, f.business_id.values)));
  if (has(f.country_code)) keys(f.country_code, ops ? facets.countryOps : facets.country);
  if (has(f.region_country_code)) keys(f.region_country_code, ops ? facets.regionOps : facets.region);
  if (has(f.company_size)) keys(f.company_size, facets.size);
  if (has(f.company_revenue)) keys(f.company_revenue, facets.revenue);
  if (has(f.company_age)) keys(f.company_age, facets.age);
  if (has(f.google_category)) keys(f.google_category, facets.google, foldText);
  if (has(f.naics_category)) keys(f.naics_category, facets.naics);
  if (has(f.linkedin_category)) keys(f.linkedin_category, facets.linkedin, foldText);
  if (has(f.company_tech_stack_category)) keys(f.company_tech_stack_category, facets.techCategory, foldText);
  if (has(f.company_tech_stack_tech)) keys(f.company_tech_stack_tech, facets.tech, foldText);
  if (has(f.company_name)) {
    const keys = f.company_name.values.flatMap(companyFilterKeys);
    out.applyKeys(f.company_name, facets.name, keys, facets.otherName);
  }
  if (has(f.number_of_locations)) keys(f.number_of_locations, facets.locations);
  if (has(f.city_region_country)) {
    keys(f.city_region_country, ops ? facets.cityRegionCountryOps : facets.cityRegionCountry, foldText);
  }
  if (has(f.city_region)) keys(f.city_region, facets.cityRegion, foldText);
  if (has(f.website_keywords)) {
    const groups = f.website_keywords.values.map((v) => [v]);
    out.apply(
      f.website_keywords,
      phraseGroups(facets.websiteKeywords, size, groups, f.website_keywords.operator),
    );
  }
  if (f.business_intent_topics && f.business_intent_topics.topics.length > 0) {
    const t = f.business_intent_topics;
    const min = t.topic_intent_level ? INTENT_RANK[t.topic_intent_level] : 0;
    const levels = INTENT_LEVELS.filter((l) => INTENT_RANK[l] >= min);
    const wanted = folded(t.topics).flatMap((k) => levels.map((l) => `${k}|${l}`));
    out.apply(t, unionKeys(facets.intent, wanted, size));
  }
  if (has(f.events)) {
    const since = engine.now() - f.events.last_occurrence * DAY_MS;
    out.apply(f.events, businessesWithEvents(businessEventIndex(engine), f.events.values, since, size));
  }
  if (f.has_website) out.apply(f.has_website, exists(ix.hasWebsite, ix.all, f.has_website));
  if (f.is_public_company) out.apply(f.is_public_company, exists(ix.isPublic, ix.all, f.is_public_company));
  return out.finish();
}

/** `set` minus the rows of `exclude` ids (in place). */
export function excludeRows(set: Bitset, rows: readonly number[]): void {
  for (const r of rows) {
    const w = r >>> 5;
    if (w < set.words.length) set.words[w]! &= ~(1 << (r & 31));
  }
}
