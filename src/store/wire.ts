/**
 * What the loader pre-builds per entity, so that reads never decode a full record (docs/spec/api-reference.md
 * §4.4 business, §5.3 prospect):
 * - `wire`: the exact fetch `full` record, as the MessagePack array of its values in `WIRE_KEYS` order
 *   (the `preview` record is a key subset of it, picked at read time; a business's `events` depend on
 *   the clock and are filled in at read time). The record's other fields are stored beside it as
 *   `rest` (`codec.ts`), so each record is stored once;
 * - `facets`: the few multi-valued fields the in-memory indexes read, as a small MessagePack array.
 *
 * Why a value array: measured on 2,000 generated records, 100 prospect records decode in 0.16 ms as
 * arrays built into objects against 0.46 ms as maps with their keys (JSON.parse: 1.0 ms), and the
 * array is 30 % smaller (prospects 1,120 → 790 B, businesses 861 → 591 B).
 *
 * Preview field sets (the spec does not show them; the docs say `full` "adds job history, social links
 * and experience"):
 * - prospect preview = full minus `linkedin`, `linkedin_url_array`, `company_linkedin`, `experience`,
 *   `skills`, `interests`;
 * - business preview = `business_id`, `name`, `domain`, `logo`, `website`, `country_name`, `region`,
 *   `city_name`, `number_of_employees_range`, `yearly_revenue_range`, `naics`, `naics_description`.
 * Other readings: `google_category` and `linkedin_category` are added to full business records (clients
 * read them); `professional_email_hashed` = sha256 hex of the lower-cased first professional e-mail;
 * `experience` = "Title at Company" strings; `job_seniority_level` = the levels in the legacy taxonomy
 * (`[null]` when there is none); `job_department` (deprecated) = the main department; `other_names`
 * (businesses, full only) = the snapshot's `{name, type}` entries, `[]` when there are none.
 */
import * as crypto from 'node:crypto';
import { Packr } from 'msgpackr/pack';
import { packJson } from './msgpack.js';
import { COUNTRY_NAME_BY_CODE, LEGACY_JOB_LEVELS, REGION_NAME_BY_CODE } from '../schemas/enums.js';
import type { BusinessRecord, ProspectRecord } from '../schemas/records.js';

export type FetchMode = 'full' | 'preview';

/**
 * Codec of the `wire` and `facets` columns (plain MessagePack: any reader can decode them). The loader
 * writes them with `packJson`, its faster writer of the same format.
 */
export const wireCodec = new Packr({ useRecords: false, moreTypes: false });

const LEGACY_LEVEL_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(LEGACY_JOB_LEVELS).map(([legacy, current]) => [current, legacy]),
);

/** The company columns a prospect record shows (copied from its business at load time). */
export interface ProspectCompany {
  company_name: string | null;
  company_website: string | null;
  company_linkedin: string | null;
}

/** sha256 hex of the lower-cased first professional e-mail, or null. */
export function professionalEmailHash(p: Pick<ProspectRecord, 'emails'>): string | null {
  for (const e of p.emails) {
    if (e.type === 'professional' || e.type === 'current_professional') {
      return sha256Hex(e.address.trim().toLowerCase());
    }
  }
  return null;
}

// One-shot `crypto.hash` (Node ≥ 20.12) skips the Hash object `createHash` allocates per call.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
const sha256Hex = oneShot
  ? (s: string) => oneShot('sha256', s, 'hex')
  : (s: string) => crypto.createHash('sha256').update(s).digest('hex');

function experienceLines(p: ProspectRecord): string[] {
  const out: string[] = [];
  for (const x of p.experience) {
    const line = x.title
      ? x.company_name
        ? `${x.title} at ${x.company_name}`
        : x.title
      : (x.company_name ?? '');
    if (line.length > 0) out.push(line);
  }
  return out;
}

// The records below are object literals in wire order, not spreads of shared parts: a spread-built
// record (a dozen keys added one by one) cost ~10× more to build and to encode.
export function prospectRecord(p: ProspectRecord, row: ProspectCompany) {
  const levels = p.job_level_array.length ? p.job_level_array : p.job_level_main ? [p.job_level_main] : [];
  const departments = p.job_department_array.length
    ? p.job_department_array
    : p.job_department_main
      ? [p.job_department_main]
      : [];
  const seniority = levels.length ? levels.map((l) => LEGACY_LEVEL_OF.get(l) ?? l) : [null];
  const countryName =
    p.country_name ?? (p.country_code ? (COUNTRY_NAME_BY_CODE.get(p.country_code) ?? null) : null);
  const regionName =
    p.region_name ??
    (p.region_country_code ? (REGION_NAME_BY_CODE.get(p.region_country_code) ?? null) : null);
  return {
    prospect_id: p.prospect_id,
    professional_email_hashed: professionalEmailHash(p),
    first_name: p.first_name,
    last_name: p.last_name,
    full_name: p.full_name,
    country_name: countryName,
    region_name: regionName,
    city: p.city,
    linkedin: p.linkedin,
    linkedin_url_array: p.linkedin_url_array,
    experience: experienceLines(p),
    skills: p.skills,
    interests: p.interests,
    company_name: row.company_name,
    company_website: row.company_website,
    company_linkedin: row.company_linkedin,
    job_department: p.job_department_main,
    job_department_array: departments,
    job_department_main: p.job_department_main,
    job_seniority_level: seniority,
    job_level_array: levels,
    job_level_main: p.job_level_main,
    job_title: p.job_title,
    business_id: p.business_id,
  };
}

export type ProspectWire = ReturnType<typeof prospectRecord>;

export function businessRecord(b: BusinessRecord, events: string[]) {
  const countryName =
    b.country_name ?? (b.country_code ? (COUNTRY_NAME_BY_CODE.get(b.country_code) ?? null) : null);
  const region =
    b.region ?? (b.region_country_code ? (REGION_NAME_BY_CODE.get(b.region_country_code) ?? null) : null);
  return {
    business_id: b.business_id,
    name: b.name,
    domain: b.domain,
    logo: b.logo,
    website: b.website,
    country_name: countryName,
    region,
    city_name: b.city_name,
    number_of_employees_range: b.number_of_employees_range,
    yearly_revenue_range: b.yearly_revenue_range,
    naics: b.naics,
    naics_description: b.naics_description,
    business_description: b.business_description,
    sic_code: b.sic_code,
    sic_code_description: b.sic_code_description,
    business_intent_topics: b.business_intent_topics.map((t) => ({
      topic: t.topic,
      intent_level: t.intent_level,
    })),
    events,
    linkedin_profile: b.linkedin_profile,
    google_category: b.google_category,
    linkedin_category: b.linkedin_category,
    other_names: b.other_names.map((o) => ({ name: o.name, type: o.type })),
  };
}

/** Keys of the preview records, in wire order (a subset of the full record's keys). */
export const PROSPECT_PREVIEW_KEYS = [
  'prospect_id',
  'professional_email_hashed',
  'first_name',
  'last_name',
  'full_name',
  'country_name',
  'region_name',
  'city',
  'company_name',
  'company_website',
  'job_department',
  'job_department_array',
  'job_department_main',
  'job_seniority_level',
  'job_level_array',
  'job_level_main',
  'job_title',
  'business_id',
] as const;

export const BUSINESS_PREVIEW_KEYS = [
  'business_id',
  'name',
  'domain',
  'logo',
  'website',
  'country_name',
  'region',
  'city_name',
  'number_of_employees_range',
  'yearly_revenue_range',
  'naics',
  'naics_description',
] as const;

/** A `full` record's preview: the preview keys, in preview order. */
export function pick(full: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = full[k];
  return out;
}

/**
 * Keys of the full records, in wire order: the stored `wire` blob is the MessagePack array of the
 * values in this order (the keys, a third of the bytes, are spelled out once here instead of per row).
 * Changing a list changes the file format: bump `SCHEMA_VERSION`.
 */
export const WIRE_KEYS = {
  prospects: [
    'prospect_id',
    'professional_email_hashed',
    'first_name',
    'last_name',
    'full_name',
    'country_name',
    'region_name',
    'city',
    'linkedin',
    'linkedin_url_array',
    'experience',
    'skills',
    'interests',
    'company_name',
    'company_website',
    'company_linkedin',
    'job_department',
    'job_department_array',
    'job_department_main',
    'job_seniority_level',
    'job_level_array',
    'job_level_main',
    'job_title',
    'business_id',
  ],
  businesses: [
    'business_id',
    'name',
    'domain',
    'logo',
    'website',
    'country_name',
    'region',
    'city_name',
    'number_of_employees_range',
    'yearly_revenue_range',
    'naics',
    'naics_description',
    'business_description',
    'sic_code',
    'sic_code_description',
    'business_intent_topics',
    'events',
    'linkedin_profile',
    'google_category',
    'linkedin_category',
    'other_names',
  ],
} as const satisfies Record<'prospects' | 'businesses', readonly string[]>;

export type WireStream = keyof typeof WIRE_KEYS;

/** A full record's values in `WIRE_KEYS` order, as MessagePack. */
export function packWire(stream: WireStream, record: Record<string, unknown>): Buffer {
  const keys = WIRE_KEYS[stream];
  const values = new Array<unknown>(keys.length);
  for (let i = 0; i < keys.length; i++) values[i] = record[keys[i]!];
  return packJson(values);
}

/**
 * One object literal per stream with the keys in wire order: every record decoded gets the same
 * hidden class, and building it this way measured ~3× faster (100 prospect records: 0.16 ms) than
 * decoding the same records stored as maps with their keys (0.46 ms).
 */
const BUILD: Record<WireStream, (values: unknown[]) => Record<string, unknown>> = {
  prospects: objectBuilder(WIRE_KEYS.prospects),
  businesses: objectBuilder(WIRE_KEYS.businesses),
};

function objectBuilder(keys: readonly string[]): (values: unknown[]) => Record<string, unknown> {
  const body = keys.map((k, i) => `${JSON.stringify(k)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${body} };`) as (values: unknown[]) => Record<string, unknown>;
}

/** The full fetch record a stored `wire` blob holds. */
export function unpackWire(stream: WireStream, wire: Uint8Array): Record<string, unknown> {
  const values = wireCodec.unpack(wire) as unknown[];
  if (!Array.isArray(values) || values.length !== WIRE_KEYS[stream].length) {
    throw new Error(`stored ${stream} record is not a ${WIRE_KEYS[stream].length}-value array`);
  }
  return BUILD[stream](values);
}

/** The `wire` blob of a prospect: its full fetch record. */
export function prospectWire(p: ProspectRecord, company: ProspectCompany): Buffer {
  return packWire('prospects', prospectRecord(p, company));
}

/** The `wire` blob of a business: its full fetch record with `events: []` (filled in at read time). */
export function businessWire(b: BusinessRecord): Buffer {
  return packWire('businesses', businessRecord(b, []));
}

/**
 * The `other_names` column: the other names as a JSON array of strings, null when there are none (the
 * match, filter and completion indexes read it without decoding a record).
 */
export function otherNamesColumn(b: Pick<BusinessRecord, 'other_names'>): string | null {
  return b.other_names.length === 0 ? null : JSON.stringify(b.other_names.map((o) => o.name));
}

/** What the prospect index reads beyond the scalar columns. */
export type ProspectFacets = [
  jobLevels: string[],
  jobDepartments: string[],
  skills: string[],
  interests: string[],
];

export function prospectFacets(p: ProspectRecord): Buffer {
  const f: ProspectFacets = [p.job_level_array, p.job_department_array, p.skills, p.interests];
  return packJson(f);
}

/** What the business index reads beyond the scalar columns; locations as `[country, region, city]`. */
export type BusinessFacets = [
  operatingLocations: [string | null, string | null, string | null][],
  googleCategory: string[],
  linkedinCategory: string[],
  naicsDescription: string | null,
  techCategories: string[],
  tech: string[],
  websiteKeywords: string[],
  intentTopics: [topic: string, level: string][],
];

export function businessFacets(b: BusinessRecord): Buffer {
  const f: BusinessFacets = [
    b.operating_locations.map((l) => [l.country_code, l.region_country_code, l.city_name]),
    b.google_category,
    b.linkedin_category,
    b.naics_description,
    b.company_tech_stack_categories,
    b.company_tech_stack_tech,
    b.website_keywords,
    b.business_intent_topics.map((t) => [t.topic, t.intent_level]),
  ];
  return packJson(f);
}
