/**
 * Record validation for the loader. zod (`schemas/records.ts`) is the source of truth; the hot path is
 * a hand-written check of the common case that builds exactly what zod outputs (the same keys in the
 * same order: the schema's keys first, then unknown keys in input order; the same defaults and
 * lower-cased codes). Whatever the fast check is not sure about (a bad value, an unusual shape) goes to
 * zod, which accepts or rejects it and words the reason. `test/load.validate.test.ts` checks with
 * fast-check that both give the same answer and the same output.
 *
 * Over 400 lines on purpose: the hand-written fast path mirrors `schemas/records.ts` field by field, and
 * the property test compares the two; splitting it would split that mirror.
 */
import { z, type ZodType } from 'zod';
import { EventRecordWithPayload } from '../schemas/events.js';
import {
  COMPANY_REVENUES,
  COMPANY_SIZES,
  COUNTRY_CODE_SET,
  EMAIL_STATUSES,
  EMAIL_TYPES,
  INTENT_LEVELS,
  JOB_DEPARTMENTS,
  JOB_LEVELS,
  REGION_CODE_SET,
} from '../schemas/enums.js';
import {
  BUSINESS_ID,
  BusinessRecord,
  MAX_OTHER_NAMES,
  OTHER_NAME_TYPES,
  PROSPECT_ID,
  ProspectRecord,
} from '../schemas/records.js';
import type { StreamName } from '../snapshot/files.js';

// `enrichments` is the bulk of a record (most of a business line) and is stored as is: checking that
// it is an object is enough, where `z.record(z.string(), z.unknown())` walked and copied every key.
const enrichments = z
  .custom<Record<string, unknown>>(
    (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
    'Invalid input: expected record',
  )
  .nullish()
  .transform((v) => v ?? {});

/** The schemas a load validates each stream with (the record schemas, `enrichments` only checked). */
export const LOAD_SCHEMAS: Record<StreamName, ZodType> = {
  businesses: BusinessRecord.extend({ enrichments }),
  prospects: ProspectRecord.extend({ enrichments }),
  events: EventRecordWithPayload,
};

/** A validated record, or the reason the line is refused (zod's first issues, with their paths). */
export type Validated = { ok: true; record: unknown } | { ok: false; reason: string };

export function issueReason(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 3)
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/** Validates one raw record of `stream`: the fast check first, zod when it is not sure. */
export function validator(stream: StreamName): (value: unknown) => Validated {
  const schema = LOAD_SCHEMAS[stream];
  const fast = stream === 'businesses' ? fastBusiness : stream === 'prospects' ? fastProspect : undefined;
  return (value) => {
    const record = fast?.(value);
    if (record !== undefined) return { ok: true, record };
    const parsed = schema.safeParse(value);
    return parsed.success
      ? { ok: true, record: parsed.data }
      : { ok: false, reason: issueReason(parsed.error) };
  };
}

// ---------------------------------------------------------------------------------------------------
// The fast check. Each helper returns `undefined` when it is not sure (then zod decides).

type Obj = Record<string, unknown>;

const isPlain = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/** `text`: a string, or null when absent. */
const text = (v: unknown): string | null | undefined =>
  v === undefined || v === null ? null : typeof v === 'string' ? v : undefined;

/** `z.string().nullish()` defaulting to `''`. */
const textOrEmpty = (v: unknown): string | undefined =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v : undefined;

/** `textList`: an array of strings (the input array itself: zod's copy is equal), `[]` when absent. */
function textList(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return undefined;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return undefined;
  return v as string[];
}

/** An optional member of `values`, null when absent. */
function member(v: unknown, values: ReadonlySet<string>): string | null | undefined {
  if (v === undefined || v === null) return null;
  return typeof v === 'string' && values.has(v) ? v : undefined;
}

/** A list of members of `values` (the input array itself), `[]` when absent. */
function members(v: unknown, values: ReadonlySet<string>): string[] | undefined {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return undefined;
  for (let i = 0; i < v.length; i++) {
    const s: unknown = v[i];
    if (typeof s !== 'string' || !values.has(s)) return undefined;
  }
  return v as string[];
}

/** `int` with a range: a safe integer in `[min, max]`, null when absent. */
function int(v: unknown, min: number, max: number): number | null | undefined {
  if (v === undefined || v === null) return null;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max ? v : undefined;
}

/** An optional country or region code, lower-cased. */
function code(v: unknown, codes: ReadonlySet<string>): string | null | undefined {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') return undefined;
  const lower = v.toLowerCase();
  return codes.has(lower) ? lower : undefined;
}

/**
 * Copies the unknown keys of `input` onto `out` in input order (zod's loose objects keep them). False
 * when a key needs zod's own handling (`__proto__`).
 */
function copyExtras(input: Obj, out: Obj, shape: ReadonlySet<string>): boolean {
  for (const k in input) {
    if (shape.has(k)) continue;
    if (k === '__proto__') return false;
    out[k] = input[k];
  }
  return true;
}

/** An array of loose objects checked by `item`, `[]` when absent. */
function objects<T>(v: unknown, item: (o: unknown) => T | undefined): T[] | undefined {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return undefined;
  const out: T[] = new Array<T>(v.length);
  for (let i = 0; i < v.length; i++) {
    const o = item(v[i]);
    if (o === undefined) return undefined;
    out[i] = o;
  }
  return out;
}

function enrichmentsOf(v: unknown): Obj | undefined {
  if (v === undefined || v === null) return {};
  return typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

const SIZES: ReadonlySet<string> = new Set(COMPANY_SIZES);
const REVENUES: ReadonlySet<string> = new Set(COMPANY_REVENUES);
const INTENTS: ReadonlySet<string> = new Set(INTENT_LEVELS);
const LEVELS: ReadonlySet<string> = new Set(JOB_LEVELS);
const DEPARTMENTS: ReadonlySet<string> = new Set(JOB_DEPARTMENTS);
const EMAIL_TYPE_SET: ReadonlySet<string> = new Set(EMAIL_TYPES);
const EMAIL_STATUS_SET: ReadonlySet<string> = new Set(EMAIL_STATUSES);
const OTHER_NAME_TYPE_SET: ReadonlySet<string> = new Set(OTHER_NAME_TYPES);
const E164 = /^\+[1-9]\d{6,14}$/;

const keysOf = (schema: { shape: object }): ReadonlySet<string> => new Set(Object.keys(schema.shape));
const BUSINESS_KEYS = keysOf(BusinessRecord);
const PROSPECT_KEYS = keysOf(ProspectRecord);
const LOCATION_KEYS: ReadonlySet<string> = new Set(['country_code', 'region_country_code', 'city_name']);
const TOPIC_KEYS: ReadonlySet<string> = new Set(['topic', 'intent_level']);
const EMAIL_KEYS: ReadonlySet<string> = new Set(['address', 'type', 'status', 'source']);
const PHONE_KEYS: ReadonlySet<string> = new Set(['phone_number', 'type', 'source']);
const EXPERIENCE_KEYS: ReadonlySet<string> = new Set(['company_name', 'title', 'start_date', 'end_date']);
const EDUCATION_KEYS: ReadonlySet<string> = new Set(['school', 'degree', 'field', 'end_year']);
const OTHER_NAME_KEYS: ReadonlySet<string> = new Set(['name', 'type']);

function location(v: unknown): Obj | undefined {
  if (!isPlain(v)) return undefined;
  const country_code = code(v.country_code, COUNTRY_CODE_SET);
  const region_country_code = code(v.region_country_code, REGION_CODE_SET);
  const city_name = text(v.city_name);
  if (country_code === undefined || region_country_code === undefined || city_name === undefined) {
    return undefined;
  }
  const out: Obj = { country_code, region_country_code, city_name };
  return copyExtras(v, out, LOCATION_KEYS) ? out : undefined;
}

function topic(v: unknown): Obj | undefined {
  if (!isPlain(v)) return undefined;
  const { topic, intent_level } = v;
  if (typeof topic !== 'string' || topic.length < 1) return undefined;
  if (typeof intent_level !== 'string' || !INTENTS.has(intent_level)) return undefined;
  const out: Obj = { topic, intent_level };
  return copyExtras(v, out, TOPIC_KEYS) ? out : undefined;
}

function email(v: unknown): Obj | undefined {
  if (!isPlain(v)) return undefined;
  const { address, type } = v;
  if (typeof address !== 'string' || address.length < 3 || !address.includes('@')) return undefined;
  if (typeof type !== 'string' || !EMAIL_TYPE_SET.has(type)) return undefined;
  const status = member(v.status, EMAIL_STATUS_SET);
  const source = text(v.source);
  if (status === undefined || source === undefined) return undefined;
  const out: Obj = { address, type, status, source };
  return copyExtras(v, out, EMAIL_KEYS) ? out : undefined;
}

function phone(v: unknown): Obj | undefined {
  if (!isPlain(v)) return undefined;
  const phone_number = v.phone_number;
  if (typeof phone_number !== 'string' || !E164.test(phone_number)) return undefined;
  const type = text(v.type);
  const source = text(v.source);
  if (type === undefined || source === undefined) return undefined;
  const out: Obj = { phone_number, type, source };
  return copyExtras(v, out, PHONE_KEYS) ? out : undefined;
}

function experienceItem(v: unknown): Obj | undefined {
  if (!isPlain(v)) return undefined;
  const company_name = text(v.company_name);
  const title = text(v.title);
  const start_date = text(v.start_date);
  const end_date = text(v.end_date);
  if (
    company_name === undefined ||
    title === undefined ||
    start_date === undefined ||
    end_date === undefined
  ) {
    return undefined;
  }
  const out: Obj = { company_name, title, start_date, end_date };
  return copyExtras(v, out, EXPERIENCE_KEYS) ? out : undefined;
}

function educationItem(v: unknown): Obj | undefined {
  if (!isPlain(v)) return undefined;
  const school = text(v.school);
  const degree = text(v.degree);
  const field = text(v.field);
  const end_year = int(v.end_year, -Infinity, Infinity);
  if (school === undefined || degree === undefined || field === undefined || end_year === undefined) {
    return undefined;
  }
  const out: Obj = { school, degree, field, end_year };
  return copyExtras(v, out, EDUCATION_KEYS) ? out : undefined;
}

function otherName(v: unknown): Obj | undefined {
  if (!isPlain(v)) return undefined;
  const { name, type } = v;
  if (typeof name !== 'string' || name.trim().length === 0) return undefined;
  if (typeof type !== 'string' || !OTHER_NAME_TYPE_SET.has(type)) return undefined;
  const out: Obj = { name, type };
  return copyExtras(v, out, OTHER_NAME_KEYS) ? out : undefined;
}

/** `other_names`: at most {@link MAX_OTHER_NAMES} entries, `[]` when absent. */
function otherNames(v: unknown): Obj[] | undefined {
  if (Array.isArray(v) && v.length > MAX_OTHER_NAMES) return undefined;
  return objects(v, otherName);
}

/** `BusinessRecord` (with the loader's `enrichments`) for the common case; `undefined`: ask zod. */
export function fastBusiness(v: unknown): BusinessRecord | undefined {
  if (!isPlain(v)) return undefined;
  const business_id = v.business_id;
  if (typeof business_id !== 'string' || !BUSINESS_ID.test(business_id)) return undefined;
  const name = v.name;
  if (typeof name !== 'string' || name.length < 1) return undefined;
  const domain = text(v.domain);
  const website = text(v.website);
  const linkedin_profile = text(v.linkedin_profile);
  const logo = text(v.logo);
  const business_description = text(v.business_description);
  const country_code = code(v.country_code, COUNTRY_CODE_SET);
  const country_name = text(v.country_name);
  const region_country_code = code(v.region_country_code, REGION_CODE_SET);
  const region = text(v.region);
  const city_name = text(v.city_name);
  const city_region = text(v.city_region);
  if (
    domain === undefined ||
    website === undefined ||
    linkedin_profile === undefined ||
    logo === undefined ||
    business_description === undefined ||
    country_code === undefined ||
    country_name === undefined ||
    region_country_code === undefined ||
    region === undefined ||
    city_name === undefined ||
    city_region === undefined
  ) {
    return undefined;
  }
  const operating_locations = objects(v.operating_locations, location);
  const number_of_employees_range = member(v.number_of_employees_range, SIZES);
  const yearly_revenue_range = member(v.yearly_revenue_range, REVENUES);
  const founded_year = int(v.founded_year, 1000, 2100);
  const number_of_locations = int(v.number_of_locations, 0, Infinity);
  const naics = int(v.naics, 10, 999_999);
  const naics_description = text(v.naics_description);
  const sic_code = text(v.sic_code);
  const sic_code_description = text(v.sic_code_description);
  if (
    operating_locations === undefined ||
    number_of_employees_range === undefined ||
    yearly_revenue_range === undefined ||
    founded_year === undefined ||
    number_of_locations === undefined ||
    naics === undefined ||
    naics_description === undefined ||
    sic_code === undefined ||
    sic_code_description === undefined
  ) {
    return undefined;
  }
  const google_category = textList(v.google_category);
  const linkedin_category = textList(v.linkedin_category);
  const company_tech_stack_tech = textList(v.company_tech_stack_tech);
  const company_tech_stack_categories = textList(v.company_tech_stack_categories);
  const website_keywords = textList(v.website_keywords);
  const business_intent_topics = objects(v.business_intent_topics, topic);
  const isPublic = v.is_public_company;
  const is_public_company = isPublic === undefined || isPublic === null ? false : isPublic;
  const ticker = text(v.ticker);
  const enrichments = enrichmentsOf(v.enrichments);
  const other_names = otherNames(v.other_names);
  if (
    other_names === undefined ||
    google_category === undefined ||
    linkedin_category === undefined ||
    company_tech_stack_tech === undefined ||
    company_tech_stack_categories === undefined ||
    website_keywords === undefined ||
    business_intent_topics === undefined ||
    typeof is_public_company !== 'boolean' ||
    ticker === undefined ||
    enrichments === undefined
  ) {
    return undefined;
  }
  const out = {
    business_id,
    name,
    domain,
    website,
    linkedin_profile,
    logo,
    business_description,
    country_code,
    country_name,
    region_country_code,
    region,
    city_name,
    city_region,
    operating_locations,
    number_of_employees_range,
    yearly_revenue_range,
    founded_year,
    number_of_locations,
    naics,
    naics_description,
    sic_code,
    sic_code_description,
    google_category,
    linkedin_category,
    company_tech_stack_tech,
    company_tech_stack_categories,
    website_keywords,
    business_intent_topics,
    is_public_company,
    ticker,
    enrichments,
    other_names,
  };
  return copyExtras(v, out, BUSINESS_KEYS) ? (out as BusinessRecord) : undefined;
}

/** `ProspectRecord` (with the loader's `enrichments`) for the common case; `undefined`: ask zod. */
export function fastProspect(v: unknown): ProspectRecord | undefined {
  if (!isPlain(v)) return undefined;
  const prospect_id = v.prospect_id;
  if (typeof prospect_id !== 'string' || !PROSPECT_ID.test(prospect_id)) return undefined;
  let business_id = v.business_id;
  if (business_id === undefined) business_id = null;
  else if (business_id !== null && (typeof business_id !== 'string' || !BUSINESS_ID.test(business_id))) {
    return undefined;
  }
  const first_name = textOrEmpty(v.first_name);
  const last_name = textOrEmpty(v.last_name);
  const full_name = textOrEmpty(v.full_name);
  const linkedin = text(v.linkedin);
  const linkedin_url_array = textList(v.linkedin_url_array);
  const country_code = code(v.country_code, COUNTRY_CODE_SET);
  const country_name = text(v.country_name);
  const region_country_code = code(v.region_country_code, REGION_CODE_SET);
  const region_name = text(v.region_name);
  const city = text(v.city);
  const job_title = textOrEmpty(v.job_title);
  if (
    first_name === undefined ||
    last_name === undefined ||
    full_name === undefined ||
    linkedin === undefined ||
    linkedin_url_array === undefined ||
    country_code === undefined ||
    country_name === undefined ||
    region_country_code === undefined ||
    region_name === undefined ||
    city === undefined ||
    job_title === undefined
  ) {
    return undefined;
  }
  const job_level_main = member(v.job_level_main, LEVELS);
  const job_level_array = members(v.job_level_array, LEVELS);
  const job_department_main = member(v.job_department_main, DEPARTMENTS);
  const job_department_array = members(v.job_department_array, DEPARTMENTS);
  const total_experience_months = int(v.total_experience_months, 0, Infinity);
  const current_role_months = int(v.current_role_months, 0, Infinity);
  const experience = objects(v.experience, experienceItem);
  const skills = textList(v.skills);
  const interests = textList(v.interests);
  const education = objects(v.education, educationItem);
  const age_group = text(v.age_group);
  const gender = text(v.gender);
  const emails = objects(v.emails, email);
  const phone_numbers = objects(v.phone_numbers, phone);
  const enrichments = enrichmentsOf(v.enrichments);
  if (
    job_level_main === undefined ||
    job_level_array === undefined ||
    job_department_main === undefined ||
    job_department_array === undefined ||
    total_experience_months === undefined ||
    current_role_months === undefined ||
    experience === undefined ||
    skills === undefined ||
    interests === undefined ||
    education === undefined ||
    age_group === undefined ||
    gender === undefined ||
    emails === undefined ||
    phone_numbers === undefined ||
    enrichments === undefined
  ) {
    return undefined;
  }
  const out = {
    prospect_id,
    business_id,
    first_name,
    last_name,
    full_name,
    linkedin,
    linkedin_url_array,
    country_code,
    country_name,
    region_country_code,
    region_name,
    city,
    job_title,
    job_level_main,
    job_level_array,
    job_department_main,
    job_department_array,
    total_experience_months,
    current_role_months,
    experience,
    skills,
    interests,
    education,
    age_group,
    gender,
    emails,
    phone_numbers,
    enrichments,
  };
  return copyExtras(v, out, PROSPECT_KEYS) ? (out as unknown as ProspectRecord) : undefined;
}
