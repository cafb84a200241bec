/**
 * Autocomplete (docs/spec/api-reference.md §7) for the 21 fields of the enumeration. Items are `{query,
 * label, value}`; values come from the loaded data plus the fixed enumerations, ranked by how many records
 * hold them (businesses and prospects together where both carry the field).
 *
 * Matching: every word of a label (and of its aliases: country and region codes, legacy job levels and
 * departments, NAICS codes) is searchable by prefix, so "unit" finds "Tanzania, United Republic Of";
 * all query words must match; if fewer than the limit match, one-edit typos in any word (of 3+
 * characters) are tried. Queries are cut to {@link MAX_QUERY_CHARS} characters (library callers too).
 * An empty query lists the most common values. At most {@link AUTOCOMPLETE_LIMIT} items.
 * `semantic_search` scores every value by word similarity (prefix, substring or small edit distance)
 * and, for job titles, adds related titles; it applies to every field (built for
 * `business_intent_topics`), falling back to prefix search on fields with more than 50,000 values.
 * Labels: countries as title-cased names (value = alpha-2 code, also for `country_code`), regions as
 * "California, US" (value `us-ca`), NAICS as "541512 Custom Computer Programming Services" (value the
 * code); every other field's label and value are the stored value.
 * `company_name` reads legal forms as the matcher does (ISO 20275 classes, {@link companyMatchName}):
 * a query ending or starting with a form in any spelling ("brightwell nv", "… naamloze vennootschap")
 * finds the names carrying that form, beside the literal matches, ranked by weight; then the names
 * without the query's form (another form, or none) fill what is left. A business's other names
 * (`other_names`) are searchable too, and suggest its current name (the label and value).
 */
import type { Context, Kind } from '../runtime/context.js';
import { savedIndex } from '../indexes/persist.js';
import { businessIndex } from '../indexes/businesses.js';
import {
  COMPLETION_FORM,
  CompletionIndex,
  MAX_QUERY_CHARS,
  queryWords,
  tagWord,
  type CompletionCandidate,
} from '../indexes/completion.js';
import type { Facet } from '../indexes/facet.js';
import { countryLabel, regionLabel } from '../indexes/labels.js';
import { otherNamesOf } from '../indexes/match/other-names.js';
import { prospectIndex } from '../indexes/prospects.js';
import { relatedTitles } from '../indexes/related-titles.js';
import { companyMatchName, splitLegalForms } from '../normalise/company.js';
import { foldText } from '../normalise/index.js';
import {
  AUTOCOMPLETE_FIELDS,
  COMPANY_AGES,
  COMPANY_REVENUES,
  COMPANY_SIZES,
  COUNTRY_CODES,
  JOB_DEPARTMENTS,
  JOB_LEVELS,
  LEGACY_JOB_DEPARTMENTS,
  LEGACY_JOB_LEVELS,
  NUMBER_OF_LOCATIONS,
  REGION_CODES,
  type AutocompleteField,
} from '../schemas/enums.js';
import type { AutocompleteQuery } from '../schemas/search.js';
import { OTHER_NAMES_SCAN } from '../store/sql/scans.js';

export const AUTOCOMPLETE_LIMIT = 20;
const SEMANTIC_SCAN_MAX = 50_000;

export interface AutocompleteItem {
  query: string;
  label: string;
  value: string;
}

function count(facet: Facet | undefined, key: string): number {
  const id = facet?.keys.get(key);
  return id === undefined ? 0 : facet!.counts[id]!;
}

/** Every value of a facet, weighted by its row count (labels deduplicated, the heaviest key wins). */
function facetCandidates(...facets: Facet[]): CompletionCandidate[] {
  const byLabel = new Map<string, number>();
  for (const facet of facets) {
    for (const [, id] of facet.keys) {
      const label = facet.labels[id]!;
      byLabel.set(label, (byLabel.get(label) ?? 0) + facet.counts[id]!);
    }
  }
  return [...byLabel].map(([label, weight]) => ({ label, value: label, weight }));
}

function enumCandidates(
  values: readonly string[],
  weight: (v: string) => number,
  aliases: Readonly<Record<string, string>> = {},
): CompletionCandidate[] {
  return values.map((v) => ({
    label: v,
    value: v,
    weight: weight(v),
    aliases: Object.entries(aliases)
      .filter(([, current]) => current === v)
      .map(([legacy]) => legacy),
  }));
}

function candidates(engine: Context, field: AutocompleteField): CompletionCandidate[] {
  const b = businessIndex(engine);
  const needsProspects = [
    'country',
    'country_code',
    'region_country_code',
    'job_title',
    'job_department',
    'job_level',
    'company_name',
    'skills',
    'interests',
  ].includes(field);
  const p = needsProspects ? prospectIndex(engine) : undefined;
  switch (field) {
    case 'country':
    case 'country_code':
      return COUNTRY_CODES.map((c) => ({
        label: countryLabel(c),
        value: c,
        weight: count(b.facets.country, c) + count(p?.facets.country, c),
        aliases: [c],
      }));
    case 'region_country_code':
      return REGION_CODES.map((c) => ({
        label: regionLabel(c),
        value: c,
        weight: count(b.facets.region, c) + count(p?.facets.region, c),
        aliases: [c],
      }));
    case 'google_category':
      return facetCandidates(b.facets.google);
    case 'linkedin_category':
      return facetCandidates(b.facets.linkedin);
    case 'naics_category': {
      const out: CompletionCandidate[] = [];
      for (const [code, id] of b.facets.naics.keys) {
        const description = b.naicsDescription.get(code);
        if (!description && code.length < 6) continue;
        out.push({
          label: description ? `${code} ${description}` : code,
          value: code,
          weight: b.facets.naics.counts[id]!,
          aliases: [code],
        });
      }
      return out;
    }
    case 'company_tech_stack_tech':
      return facetCandidates(b.facets.tech);
    case 'company_tech_stack_categories':
      return facetCandidates(b.facets.techCategory);
    case 'job_title':
      return facetCandidates(p!.facets.jobTitle);
    case 'company_size':
      return enumCandidates(COMPANY_SIZES, (v) => count(b.facets.size, v));
    case 'company_revenue':
      return enumCandidates(COMPANY_REVENUES, (v) => count(b.facets.revenue, v));
    case 'number_of_locations':
      return enumCandidates(NUMBER_OF_LOCATIONS, (v) => count(b.facets.locations, v));
    case 'company_age':
      return enumCandidates(COMPANY_AGES, (v) => count(b.facets.age, v));
    case 'job_department':
      return enumCandidates(
        JOB_DEPARTMENTS,
        (v) => count(p!.facets.jobDepartment, v),
        LEGACY_JOB_DEPARTMENTS,
      );
    case 'job_level':
      return enumCandidates(JOB_LEVELS, (v) => count(p!.facets.jobLevel, v), LEGACY_JOB_LEVELS);
    case 'city_region_country': {
      // The facet holds two keys per row ("miami fl us" and "miami us"); count each label once.
      const f = b.facets.cityRegionCountry;
      const out: CompletionCandidate[] = [];
      for (const [key, id] of f.keys) {
        const label = f.labels[id]!;
        if (foldText(label) === key) out.push({ label, value: label, weight: f.counts[id]! });
      }
      return out;
    }
    case 'company_name': {
      const f = b.facets.name;
      const others = otherNamesByKey(engine);
      return [...f.keys].map(([key, id]) => {
        const label = f.labels[id]!;
        const form = companyMatchName(label).form;
        return {
          label,
          value: label,
          weight: f.counts[id]! + count(p!.facets.companyName, key),
          tags: form ? form.split('+') : [],
          // Other names find the current name: "hoogovens" suggests the business now named otherwise.
          aliases: others.get(key) ?? [],
        };
      });
    }
    case 'business_intent_topics':
      return facetCandidates(b.facets.intentTopic);
    case 'city_region':
      return facetCandidates(b.facets.cityRegion);
    case 'skills':
      return facetCandidates(p!.facets.skills);
    case 'interests':
      return facetCandidates(p!.facets.interests);
  }
}

/** The other names of the businesses, by the name key of their current name. */
function otherNamesByKey(engine: Context): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const rows = engine.db.prepare(OTHER_NAMES_SCAN).raw().iterate() as IterableIterator<
    [number, string, string]
  >;
  for (const [, column, key] of rows) {
    let list = out.get(key);
    if (!list) out.set(key, (list = []));
    for (const name of otherNamesOf(column)) if (!list.includes(name)) list.push(name);
  }
  return out;
}

/**
 * The completion index of one field: read from the file when saved there (`prospectdb load` saves
 * them, see `core/warm.ts`), else built on first use per data version and saved.
 */
export function completionIndex(engine: Context, field: AutocompleteField): CompletionIndex {
  return engine.indexes.get(COMPLETION_INDEXES[field]);
}

const COMPLETION_INDEXES = Object.fromEntries(
  AUTOCOMPLETE_FIELDS.map((field) => [
    field,
    savedIndex(
      `search.autocomplete.${field}`,
      (e) => new CompletionIndex(candidates(e, field), AUTOCOMPLETE_LIMIT),
      COMPLETION_FORM,
    ),
  ]),
) as Record<AutocompleteField, Kind<CompletionIndex>>;

/**
 * Readings of a `company_name` query, in tiers: the literal words and the words with their legal forms
 * read as form classes, then the name words alone (so the form never stops a name from being found);
 * undefined when the query has no legal form at either end.
 * @example companyNameReadings('brightwell n.v.') // [[['brightwell', 'n', 'v'], ['brightwell', tagWord('nv')]], [['brightwell']]]
 */
export function companyNameReadings(query: string): string[][][] | undefined {
  const literal = queryWords(query);
  const { name, forms } = splitLegalForms(literal);
  if (name.length === literal.length) return undefined;
  return [[literal, [...name, ...forms.map(tagWord)]], [name]];
}

/**
 * Autocomplete items for a field and a query.
 * @example autocomplete(engine, { field: 'country', query: 'unit', semantic_search: false })
 * // [{ query: 'unit', label: 'United States', value: 'us' }, { query: 'unit', label: 'United Kingdom', value: 'gb' }, …]
 */
export function autocomplete(engine: Context, query: AutocompleteQuery): AutocompleteItem[] {
  const index = completionIndex(engine, query.field);
  // The facade refuses longer queries; a library caller's is cut, so the work stays bounded.
  const q = query.query.length > MAX_QUERY_CHARS ? query.query.slice(0, MAX_QUERY_CHARS) : query.query;
  const readings = query.field === 'company_name' ? companyNameReadings(q) : undefined;
  const items =
    query.semantic_search && index.size <= SEMANTIC_SCAN_MAX
      ? index.similar(q, AUTOCOMPLETE_LIMIT, query.field === 'job_title' ? relatedTitles(q).slice(1) : [])
      : readings
        ? index.searchReadings(readings, AUTOCOMPLETE_LIMIT)
        : index.search(q, AUTOCOMPLETE_LIMIT);
  return items.map((i) => ({ query: q, label: i.label, value: i.value }));
}
