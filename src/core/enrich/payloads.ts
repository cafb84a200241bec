/**
 * Builders of the payloads an enrichment returns. Firmographics and technographics come from the business
 * record, profiles and contact information from the prospect record; every other enrichment reads the
 * record's `enrichments` object (a payload object or a list of them), and is empty when absent.
 */
import { TECH_CATEGORIES, type TechCategory } from '../../schemas/enums.js';
import { categoryLabel, categoryOfLabel, categoryOfTechnology } from '../../schemas/technologies.js';
import type { BusinessRecord, ProspectRecord } from '../../schemas/records.js';
import type { CompanyColumns } from './entities.js';

export type Payload = Record<string, unknown>;

const isObject = (v: unknown): v is Payload => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The stored payloads of one enrichment name: an object → one payload, a list → its objects, else none. */
export function storedPayloads(enrichments: Record<string, unknown>, name: string): Payload[] {
  const v = enrichments[name];
  if (Array.isArray(v)) return v.filter(isObject);
  return isObject(v) ? [v] : [];
}

/** `base` with its null/absent fields filled from `extra` (record fields win over stored payloads). */
function fill(base: Payload, extra: Payload | undefined): Payload {
  if (!extra) return base;
  const out: Payload = { ...extra, ...base };
  for (const [k, v] of Object.entries(base)) if (v === null && extra[k] != null) out[k] = extra[k];
  return out;
}

export function firmographics(b: BusinessRecord): Payload {
  const locations = new Map<string, number>();
  for (const l of [{ country_code: b.country_code }, ...b.operating_locations])
    if (l.country_code) locations.set(l.country_code, (locations.get(l.country_code) ?? 0) + 1);
  return fill(
    {
      business_id: b.business_id,
      name: b.name,
      business_description: b.business_description,
      website: b.website,
      country_name: b.country_name,
      region_name: b.region,
      city_name: b.city_name,
      street: null,
      zip_code: null,
      naics: b.naics === null ? null : String(b.naics),
      naics_description: b.naics_description,
      sic_code: b.sic_code,
      sic_code_description: b.sic_code_description,
      ticker: b.ticker,
      number_of_employees_range: b.number_of_employees_range,
      yearly_revenue_range: b.yearly_revenue_range,
      linkedin_industry_category: b.linkedin_category[0] ?? null,
      linkedin_profile: b.linkedin_profile,
      business_logo: b.logo,
      locations_distribution: [...locations].map(([country_code, locations]) => ({
        country_code,
        locations,
      })),
    },
    storedPayloads(b.enrichments, 'firmographics')[0],
  );
}

/**
 * Technographics: the stored payload when the snapshot has one; otherwise derived from the same list as
 * `full_tech_stack` (`company_tech_stack_tech`), each technology in its catalogue category, so the
 * category arrays and the nested stack always agree with the flat one. A technology the catalogue does
 * not know goes to the record's only category when it lists one, and stays in `full_tech_stack` alone
 * otherwise (a guess would be a wrong answer).
 */
export function technographics(b: BusinessRecord): Payload {
  const stored = storedPayloads(b.enrichments, 'technographics')[0];
  const out: Payload = { full_tech_stack: b.company_tech_stack_tech };
  if (stored) {
    for (const c of TECH_CATEGORIES) out[c] = Array.isArray(stored[c]) ? stored[c] : [];
    out.full_nested_tech_stack = Array.isArray(stored.full_nested_tech_stack)
      ? stored.full_nested_tech_stack
      : nestedStack(b.company_tech_stack_categories, out);
    return out;
  }
  const recordCategories = b.company_tech_stack_categories
    .map(categoryOfLabel)
    .filter((c) => c !== undefined);
  const only = recordCategories.length === 1 ? recordCategories[0] : undefined;
  const byCategory = new Map<TechCategory, string[]>();
  for (const tech of b.company_tech_stack_tech) {
    const c = categoryOfTechnology(tech) ?? only;
    if (c !== undefined) byCategory.set(c, [...(byCategory.get(c) ?? []), tech]);
  }
  for (const c of TECH_CATEGORIES) out[c] = byCategory.get(c) ?? [];
  // The record's category labels first, in its order, then categories only the catalogue gave.
  const labels = [
    ...b.company_tech_stack_categories,
    ...[...byCategory.keys()].filter((c) => !recordCategories.includes(c)).map(categoryLabel),
  ];
  out.full_nested_tech_stack = nestedStack(labels, out);
  return out;
}

/** `[{category, technologies}]` for category labels, from a payload's category arrays. */
function nestedStack(labels: readonly string[], payload: Payload) {
  return labels.map((category) => {
    const key = categoryOfLabel(category);
    const techs = key === undefined ? undefined : payload[key];
    return { category, technologies: Array.isArray(techs) ? techs : [] };
  });
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function profiles(p: ProspectRecord, company: CompanyColumns): Payload {
  return fill(
    {
      prospect_id: p.prospect_id,
      full_name: p.full_name,
      first_name: p.first_name,
      last_name: p.last_name,
      country_name: p.country_name,
      region_name: p.region_name,
      city: p.city,
      linkedin: p.linkedin,
      experience: p.experience,
      skills: p.skills,
      interests: p.interests,
      age_group: p.age_group,
      education: p.education,
      gender: p.gender,
      company_name: company.company_name,
      company_website: company.company_website,
      company_linkedin: company.company_linkedin,
      job_department: p.job_department_main === null ? null : capitalise(p.job_department_main),
      job_department_array: p.job_department_array,
      job_department_main: p.job_department_main,
      job_seniority_level: p.job_level_array,
      job_level_array: p.job_level_array,
      job_level_main: p.job_level_main,
      job_title: p.job_title,
      linkedin_url_array: p.linkedin_url_array,
    },
    storedPayloads(p.enrichments, 'profiles')[0],
  );
}

/** `company_website_keywords`: the record's website phrases that contain any requested keyword. */
export function websiteKeywords(b: BusinessRecord, keywords: readonly string[]): Payload[] {
  if (b.website_keywords.length === 0) return storedPayloads(b.enrichments, 'company_website_keywords');
  const wanted = keywords.map((k) => k.toLowerCase());
  const hits = b.website_keywords.filter((t) => wanted.some((k) => t.toLowerCase().includes(k)));
  return [
    {
      url: b.website,
      keywords_indicator: hits.length > 0 ? 'True' : 'False',
      text_results: hits.map((snippet, i) => ({ snippet, url: b.website, rank: i + 1 })),
    },
  ];
}

/** Renames `from` → `to` in a payload (v2 field renames). */
export const rename =
  (from: string, to: string) =>
  (p: Payload): Payload => {
    if (!(from in p)) return p;
    const { [from]: value, ...rest } = p;
    return { ...rest, [to]: value };
  };

/** Drops fields from a payload (v2 removals). */
export const omit =
  (...keys: string[]) =>
  (p: Payload): Payload =>
    Object.fromEntries(Object.entries(p).filter(([k]) => !keys.includes(k)));
