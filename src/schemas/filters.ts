/**
 * Fetch and stats filters (docs/spec/api-reference.md §1.3, §4.3, §5.2; 0.3.19). Every filter object is
 * strict but accepts the `type` discriminator real clients send; `negate` is optional and nullable. Values
 * are normalised here, once, so the core trusts them: country and region codes are lower-cased and checked
 * against the ISO lists, legacy job levels and capitalised departments are mapped to the current taxonomy,
 * `executive_joined_company` becomes `employee_joined_company`, ids are lower-cased. Real clients' habits are
 * read as the live pydantic server reads them: booleans given as strings (`{"value": "true"}`) and
 * enumeration values in any case (`"10m-25m"`). Every list and string is bounded (`bounds.ts`: `LIMITS`);
 * unknown filter names stay a 422.
 */
import { z } from 'zod';
import { anyCase, Bool, LIMITS, list } from './bounds.js';
import {
  BUSINESS_EVENT_TYPES,
  COMPANY_AGES,
  COMPANY_REVENUES,
  COMPANY_SIZES,
  CONTACT_DETAILS,
  COUNTRY_CODE_SET,
  INTENT_LEVELS,
  JOB_DEPARTMENTS,
  JOB_LEVELS,
  LEGACY_JOB_DEPARTMENTS,
  LEGACY_JOB_LEVELS,
  NUMBER_OF_LOCATIONS,
  REGION_CODE_SET,
  V2_EVENT_RENAMES,
} from './enums.js';

/** Members every filter object accepts besides its own. */
const common = {
  /** Discriminator sent by real clients (`includes`, `range`, `exists` …); accepted and ignored. */
  type: z.string().max(LIMITS.code).nullish(),
  negate: Bool.nullish(),
};

const lower = (s: string) => s.toLowerCase();

export const CountryCodeValue = z
  .string()
  .max(LIMITS.code)
  .transform(lower)
  .refine((s) => COUNTRY_CODE_SET.has(s), {
    message: 'not a valid ISO 3166-1 alpha-2 country code (e.g. "us", "gb"; any case)',
  });
export const RegionCodeValue = z
  .string()
  .max(LIMITS.code)
  .transform(lower)
  .refine((s) => REGION_CODE_SET.has(s), {
    message: 'not a valid ISO 3166-2 region code (e.g. "us-ca", "gb-lnd"; any case)',
  });
const BusinessIdValue = z
  .string()
  .max(LIMITS.code)
  .transform(lower)
  .pipe(z.string().regex(/^[a-f0-9]{32}$/, 'must be 32 hexadecimal characters'));
const ProspectIdValue = z
  .string()
  .max(LIMITS.code)
  .transform(lower)
  .pipe(z.string().regex(/^[a-f0-9]{40}$/, 'must be 40 hexadecimal characters'));
/** Job level, any case; legacy values (`cxo`, `vp`, `senior`, `entry`) map to the current ones. */
export const JobLevelValue = z
  .string()
  .max(LIMITS.code)
  .transform((s) => {
    const l = s.trim().toLowerCase();
    return LEGACY_JOB_LEVELS[l] ?? l;
  })
  .pipe(z.enum(JOB_LEVELS));
/** Job department, any case; legacy capitalised departments (`Customer service` …) map to current ones. */
export const JobDepartmentValue = z
  .string()
  .max(LIMITS.code)
  .transform((s) => {
    const l = s.trim().toLowerCase();
    return LEGACY_JOB_DEPARTMENTS[l] ?? l;
  })
  .pipe(z.enum(JOB_DEPARTMENTS));
/** Business event type, any case; the v2 spelling maps to the stored one. */
const EventValue = z
  .string()
  .max(LIMITS.code)
  .transform((s) => {
    const l = s.trim().toLowerCase();
    return V2_EVENT_RENAMES[l] ?? l;
  })
  .pipe(z.enum(BUSINESS_EVENT_TYPES));
const NaicsValue = z
  .union([z.string().max(LIMITS.code), z.number().int().nonnegative().max(999_999).transform(String)])
  .pipe(z.string().regex(/^\d{2,6}$/, 'must be a NAICS code of 2 to 6 digits'));
const Text = z.string().max(LIMITS.text);
const OrganizationName = z.string().max(LIMITS.name);

function includes<T extends z.ZodType>(item: T, maxItems: number = LIMITS.filterValues) {
  return z.strictObject({ values: list(item, maxItems), ...common });
}

const Operator = anyCase(['or', 'and']);
const phrase = () =>
  z.strictObject({ values: list(Text, LIMITS.filterValues), operator: Operator.nullish(), ...common });

/** `{value: bool}`; `"true"` / `"false"` strings are read as booleans (the live pydantic server does). */
export const ExistsFilter = z.strictObject({ value: Bool, ...common });
const RangeBound = z.number().int().min(-LIMITS.rangeValue).max(LIMITS.rangeValue).nullish();
export const RangeFilter = z.strictObject({ gte: RangeBound, lte: RangeBound, ...common });
export const ContactDetailsFilter = z.strictObject({ value: anyCase(CONTACT_DETAILS), ...common });
export const JobTitleFilter = z.strictObject({
  values: list(Text, 300),
  operator: Operator.nullish(),
  include_related_job_titles: Bool.nullish(),
  ...common,
});
export const BusinessIntentTopicsFilter = z.strictObject({
  topics: list(Text, LIMITS.filterValues, 1),
  topic_intent_level: anyCase(INTENT_LEVELS).nullish(),
  ...common,
});
export const EventsFilter = z.strictObject({
  values: list(EventValue, LIMITS.eventTypes),
  /** Days back from the engine's clock; the docs say 30–90, clients clamp to 30–120: we take 1–365. */
  last_occurrence: z.number().int().min(1).max(365),
  ...common,
});

export const CATEGORY_FILTERS = ['google_category', 'naics_category', 'linkedin_category'] as const;

/** Only one of the three category filters per request (docs/spec/api-reference.md §1.3). */
function oneCategory(filters: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const used = CATEGORY_FILTERS.filter((k) => filters[k] !== undefined && filters[k] !== null);
  if (used.length > 1) {
    ctx.addIssue({
      code: 'custom',
      path: [],
      message: `Only one category filter allowed per request (got ${used.join(', ')}); combine google_category, naics_category and linkedin_category in separate requests`,
      params: { type: 'value_error' },
    });
  }
}

const prospectMembers = {
  prospect_id: includes(ProspectIdValue).nullish(),
  has_contact_details: ContactDetailsFilter.nullish(),
  job_level: includes(JobLevelValue).nullish(),
  job_department: includes(JobDepartmentValue).nullish(),
  business_id: includes(BusinessIdValue, LIMITS.businessIds).nullish(),
  total_experience_months: RangeFilter.nullish(),
  current_role_months: RangeFilter.nullish(),
  country_code: includes(CountryCodeValue).nullish(),
  region_country_code: includes(RegionCodeValue, LIMITS.regionValues).nullish(),
  company_country_code: includes(CountryCodeValue).nullish(),
  company_region_country_code: includes(RegionCodeValue, LIMITS.regionValues).nullish(),
  city_region_country: includes(Text).nullish(),
  company_size: includes(anyCase(COMPANY_SIZES)).nullish(),
  company_revenue: includes(anyCase(COMPANY_REVENUES)).nullish(),
  company_age: includes(anyCase(COMPANY_AGES)).nullish(),
  company_number_of_locations: includes(anyCase(NUMBER_OF_LOCATIONS)).nullish(),
  google_category: includes(Text).nullish(),
  naics_category: includes(NaicsValue).nullish(),
  linkedin_category: includes(Text).nullish(),
  job_title: JobTitleFilter.nullish(),
  skills: phrase().nullish(),
  interests: phrase().nullish(),
  company_name: includes(OrganizationName).nullish(),
  has_website: ExistsFilter.nullish(),
  is_public_company: ExistsFilter.nullish(),
};

/** v1 prospect filters (0.3.19), with `has_email` and `has_phone_number`. */
export const ProspectFilters = z
  .strictObject({
    ...prospectMembers,
    has_email: ExistsFilter.nullish(),
    has_phone_number: ExistsFilter.nullish(),
  })
  .superRefine(oneCategory);
/** v2 prospect filters: v1 without `has_email` / `has_phone_number`. */
export const ProspectFiltersV2 = z.strictObject(prospectMembers).superRefine(oneCategory);

/** Business filters (§4.3); v1 and v2 share the shape (only `include_operating_locations`' default differs). */
export const BusinessFilters = z
  .strictObject({
    business_id: includes(BusinessIdValue, LIMITS.businessIds).nullish(),
    country_code: includes(CountryCodeValue).nullish(),
    region_country_code: includes(RegionCodeValue, LIMITS.regionValues).nullish(),
    company_size: includes(anyCase(COMPANY_SIZES)).nullish(),
    company_revenue: includes(anyCase(COMPANY_REVENUES)).nullish(),
    company_age: includes(anyCase(COMPANY_AGES)).nullish(),
    google_category: includes(Text).nullish(),
    naics_category: includes(NaicsValue).nullish(),
    linkedin_category: includes(Text).nullish(),
    company_tech_stack_category: includes(Text).nullish(),
    company_tech_stack_tech: includes(Text).nullish(),
    company_name: includes(OrganizationName).nullish(),
    number_of_locations: includes(anyCase(NUMBER_OF_LOCATIONS)).nullish(),
    city_region_country: includes(Text).nullish(),
    city_region: includes(Text).nullish(),
    website_keywords: phrase().nullish(),
    business_intent_topics: BusinessIntentTopicsFilter.nullish(),
    events: EventsFilter.nullish(),
    has_website: ExistsFilter.nullish(),
    is_public_company: ExistsFilter.nullish(),
    include_operating_locations: ExistsFilter.nullish(),
  })
  .superRefine(oneCategory);
export const BusinessFiltersV2 = BusinessFilters;

export type ProspectFilters = z.output<typeof ProspectFilters>;
export type ProspectFiltersV2 = z.output<typeof ProspectFiltersV2>;
/** Either generation: the core reads v1's superset. */
export type AnyProspectFilters = ProspectFilters | ProspectFiltersV2;
export type BusinessFilters = z.output<typeof BusinessFilters>;
export type ExistsFilter = z.output<typeof ExistsFilter>;
export type RangeFilter = z.output<typeof RangeFilter>;
