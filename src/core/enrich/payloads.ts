/**
 * Builders of the payloads an enrichment returns. Firmographics and technographics come from the business
 * record, profiles and contact information from the prospect record; every other enrichment reads the
 * record's `enrichments` object (a payload object or a list of them), and is empty when absent.
 */
import { TECH_CATEGORIES } from '../../schemas/enums.js';
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

const categoryKey = (label: string) =>
  label
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

export function technographics(b: BusinessRecord): Payload {
  const stored = storedPayloads(b.enrichments, 'technographics')[0] ?? {};
  const out: Payload = { full_tech_stack: b.company_tech_stack_tech };
  for (const c of TECH_CATEGORIES) out[c] = Array.isArray(stored[c]) ? stored[c] : [];
  out.full_nested_tech_stack = Array.isArray(stored.full_nested_tech_stack)
    ? stored.full_nested_tech_stack
    : b.company_tech_stack_categories.map((category) => {
        const techs = out[categoryKey(category)];
        return { category, technologies: Array.isArray(techs) ? techs : [] };
      });
  return out;
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
