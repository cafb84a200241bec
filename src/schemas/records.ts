/**
 * Snapshot records (docs/spec/snapshot-format.md): one zod schema per stream. Unknown extra fields are kept
 * (loose objects) and ignored; optional fields get their empty defaults so the rest of the engine reads
 * one shape. Codes are lower-cased before they are checked against the enumerations.
 */
import { z } from 'zod';
import {
  BUSINESS_EVENT_TYPES,
  COMPANY_REVENUES,
  COMPANY_SIZES,
  COUNTRY_CODE_SET,
  EMAIL_STATUSES,
  EMAIL_TYPES,
  INTENT_LEVELS,
  JOB_DEPARTMENTS,
  JOB_LEVELS,
  PROSPECT_EVENT_TYPES,
  REGION_CODE_SET,
  V2_EVENT_RENAMES,
} from './enums.js';

export const BUSINESS_ID = /^[a-f0-9]{32}$/;
export const PROSPECT_ID = /^[a-f0-9]{40}$/;

export const BusinessId = z.string().regex(BUSINESS_ID, 'must be 32 lowercase hex characters');
export const ProspectId = z.string().regex(PROSPECT_ID, 'must be 40 lowercase hex characters');

const text = z
  .string()
  .nullish()
  .transform((v) => v ?? null);
const textList = z
  .array(z.string())
  .nullish()
  .transform((v) => v ?? []);
const int = z
  .number()
  .int()
  .nullish()
  .transform((v) => v ?? null);

/** Alpha-2 country code, any case in the file, lower case once loaded. */
export const CountryCode = z
  .string()
  .transform((s) => s.toLowerCase())
  .refine((s) => COUNTRY_CODE_SET.has(s), { message: 'not an ISO 3166-1 alpha-2 country code' });
/** ISO 3166-2 style region code (`us-ca`), any case in the file, lower case once loaded. */
export const RegionCode = z
  .string()
  .transform((s) => s.toLowerCase())
  .refine((s) => REGION_CODE_SET.has(s), { message: 'not an ISO 3166-2 region code' });

const optionalCountry = CountryCode.nullish().transform((v) => v ?? null);
const optionalRegion = RegionCode.nullish().transform((v) => v ?? null);
const E164 = /^\+[1-9]\d{6,14}$/;

export const OperatingLocation = z.looseObject({
  country_code: optionalCountry,
  region_country_code: optionalRegion,
  city_name: text,
});

export const IntentTopic = z.looseObject({
  topic: z.string().min(1),
  intent_level: z.enum(INTENT_LEVELS),
});

const enrichments = z
  .record(z.string(), z.unknown())
  .nullish()
  .transform((v) => v ?? {});

/** Kinds of other name a business is known by (GLEIF's OtherEntityNames types, lower-cased). */
export const OTHER_NAME_TYPES = [
  'previous_legal_name',
  'trading_name',
  'short_name',
  'transliterated_name',
  'other',
] as const;
export type OtherNameType = (typeof OTHER_NAME_TYPES)[number];
/** At most this many other names per business. */
export const MAX_OTHER_NAMES = 20;

/** Another name of a business: a former legal name, a trading or short name, a transliteration. */
export const OtherName = z.looseObject({
  name: z
    .string()
    .min(1)
    .refine((s) => s.trim().length > 0, { message: 'must not be blank' }),
  type: z.enum(OTHER_NAME_TYPES),
});

export const BusinessRecord = z.looseObject({
  business_id: BusinessId,
  name: z.string().min(1),
  domain: text,
  website: text,
  linkedin_profile: text,
  logo: text,
  business_description: text,
  country_code: optionalCountry,
  country_name: text,
  region_country_code: optionalRegion,
  region: text,
  city_name: text,
  city_region: text,
  operating_locations: z
    .array(OperatingLocation)
    .nullish()
    .transform((v) => v ?? []),
  number_of_employees_range: z
    .enum(COMPANY_SIZES)
    .nullish()
    .transform((v) => v ?? null),
  yearly_revenue_range: z
    .enum(COMPANY_REVENUES)
    .nullish()
    .transform((v) => v ?? null),
  founded_year: int.refine((y) => y === null || (y >= 1000 && y <= 2100), { message: 'implausible year' }),
  number_of_locations: int.refine((n) => n === null || n >= 0, { message: 'must be ≥ 0' }),
  naics: int.refine((n) => n === null || (n >= 10 && n <= 999_999), { message: 'must have 2 to 6 digits' }),
  naics_description: text,
  sic_code: text,
  sic_code_description: text,
  google_category: textList,
  linkedin_category: textList,
  company_tech_stack_tech: textList,
  company_tech_stack_categories: textList,
  website_keywords: textList,
  business_intent_topics: z
    .array(IntentTopic)
    .nullish()
    .transform((v) => v ?? []),
  is_public_company: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  ticker: text,
  enrichments,
  other_names: z
    .array(OtherName)
    .max(MAX_OTHER_NAMES)
    .nullish()
    .transform((v) => v ?? []),
});
export type BusinessRecord = z.output<typeof BusinessRecord>;
export type BusinessRecordInput = z.input<typeof BusinessRecord>;

export const ProspectEmail = z.looseObject({
  address: z.string().min(3).includes('@'),
  type: z.enum(EMAIL_TYPES),
  status: z
    .enum(EMAIL_STATUSES)
    .nullish()
    .transform((v) => v ?? null),
  source: text,
});

export const ProspectPhone = z.looseObject({
  phone_number: z.string().regex(E164, 'must be an E.164 number'),
  type: text,
  source: text,
});

export const ExperienceItem = z.looseObject({
  company_name: text,
  title: text,
  start_date: text,
  end_date: text,
});

export const EducationItem = z.looseObject({
  school: text,
  degree: text,
  field: text,
  end_year: int,
});

export const ProspectRecord = z.looseObject({
  prospect_id: ProspectId,
  business_id: BusinessId.nullish().transform((v) => v ?? null),
  first_name: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  last_name: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  full_name: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  linkedin: text,
  linkedin_url_array: textList,
  country_code: optionalCountry,
  country_name: text,
  region_country_code: optionalRegion,
  region_name: text,
  city: text,
  job_title: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  job_level_main: z
    .enum(JOB_LEVELS)
    .nullish()
    .transform((v) => v ?? null),
  job_level_array: z
    .array(z.enum(JOB_LEVELS))
    .nullish()
    .transform((v) => v ?? []),
  job_department_main: z
    .enum(JOB_DEPARTMENTS)
    .nullish()
    .transform((v) => v ?? null),
  job_department_array: z
    .array(z.enum(JOB_DEPARTMENTS))
    .nullish()
    .transform((v) => v ?? []),
  total_experience_months: int.refine((n) => n === null || n >= 0, { message: 'must be ≥ 0' }),
  current_role_months: int.refine((n) => n === null || n >= 0, { message: 'must be ≥ 0' }),
  experience: z
    .array(ExperienceItem)
    .nullish()
    .transform((v) => v ?? []),
  skills: textList,
  interests: textList,
  education: z
    .array(EducationItem)
    .nullish()
    .transform((v) => v ?? []),
  age_group: text,
  gender: text,
  emails: z
    .array(ProspectEmail)
    .nullish()
    .transform((v) => v ?? []),
  phone_numbers: z
    .array(ProspectPhone)
    .nullish()
    .transform((v) => v ?? []),
  enrichments,
});
export type ProspectRecord = z.output<typeof ProspectRecord>;
export type ProspectRecordInput = z.input<typeof ProspectRecord>;

/** ISO 8601 date-time with an explicit offset (`Z` or `±hh:mm`). */
export const IsoDateTime = z.iso.datetime({ offset: true });

const businessEventName = z
  .string()
  .transform((s) => V2_EVENT_RENAMES[s] ?? s)
  .pipe(z.enum(BUSINESS_EVENT_TYPES));

const eventBase = {
  event_id: z.string().min(1).max(128),
  event_time: IsoDateTime,
  data: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((v) => v ?? {}),
};

export const BusinessEventRecord = z.looseObject({
  ...eventBase,
  event_name: businessEventName,
  business_id: BusinessId,
});
export const ProspectEventRecord = z.looseObject({
  ...eventBase,
  event_name: z.enum(PROSPECT_EVENT_TYPES),
  prospect_id: ProspectId,
});

/** An event is about a business or a prospect; the event name decides which id it must carry. */
export const EventRecord = z.union([BusinessEventRecord, ProspectEventRecord]);
export type BusinessEventRecord = z.output<typeof BusinessEventRecord>;
export type ProspectEventRecord = z.output<typeof ProspectEventRecord>;
export type EventRecord = z.output<typeof EventRecord>;

export const Manifest = z.looseObject({
  format_version: z.literal(1),
  as_of: IsoDateTime.optional(),
  counts: z.record(z.string(), z.number().int().nonnegative()).optional(),
});
export type Manifest = z.output<typeof Manifest>;

/**
 * A delta's manifest: the changes to one snapshot (`base_snapshot_id`, the id `info()` reports), made
 * into the next snapshot as of `as_of`. A snapshot's manifest has no `kind` (or `"snapshot"`).
 */
export const DeltaManifest = z.looseObject({
  format_version: z.literal(1),
  kind: z.literal('delta'),
  base_snapshot_id: z.string().min(1).max(128),
  as_of: IsoDateTime.optional(),
});
export type DeltaManifest = z.output<typeof DeltaManifest>;

/** One line of a delta's `deletions` stream: the id of one business, prospect or event to delete. */
export const DeletionRecord = z.union([
  z.strictObject({ business_id: BusinessId }),
  z.strictObject({ prospect_id: ProspectId }),
  z.strictObject({ event_id: eventBase.event_id }),
]);
export type DeletionRecord = z.output<typeof DeletionRecord>;
