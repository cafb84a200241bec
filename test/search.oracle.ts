/**
 * Test support for the search core: a seeded synthetic snapshot with awkward values (mixed case,
 * legal suffixes, missing fields, operating locations) and a brute-force oracle that evaluates filters
 * by scanning the raw records, written from the documented readings, not from the indexes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { relatedTitles } from '../src/indexes/related-titles.js';
import { companyKey, foldText } from '../src/normalise/index.js';
import { ageBucket, cityRegionCountry, locationsBucket } from '../src/store/derive.js';
import { mulberry32 } from '../tools/rng.js';
import { tempDir } from './support/temp.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw snapshot records of any shape
export type Json = Record<string, any>;

export function rng(seed: number) {
  const next = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const some = <T>(xs: readonly T[], max: number): T[] => {
    const n = Math.floor(next() * (max + 1));
    return [...new Set(Array.from({ length: n }, () => pick(xs)))];
  };
  return { next, pick, some, chance: (p: number) => next() < p };
}

const hex = (r: ReturnType<typeof rng>, n: number) =>
  Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(r.next() * 16)]).join('');

export const PLACES = [
  { country: 'us', region: 'us-ca', city: 'San Francisco' },
  { country: 'us', region: 'us-ny', city: 'New York' },
  { country: 'US', region: 'US-FL', city: 'Miami' },
  { country: 'gb', region: 'gb-lnd', city: 'London' },
  { country: 'de', region: 'de-be', city: 'Berlin' },
  { country: 'ca', region: 'ca-on', city: 'Toronto' },
  { country: 'fr', region: null, city: 'Paris' },
  { country: 'il', region: 'il-ta', city: 'Tel Aviv' },
  { country: null, region: null, city: null },
];
export const NAMES = [
  'Acme Robotics',
  'Globex',
  'Initech',
  'Umbrella',
  'Müller & Söhne',
  'Stark Industries',
  'Wayne',
];
export const SUFFIXES = [', Inc.', ' GmbH', ' LLC', ' Ltd', '', ' Corp.'];
export const NAICS = [541512, 541511, 541519, 522110, 621111, 445110, 72, null];
export const GOOGLE = [
  'Software company',
  'software Company',
  'Bank',
  'Grocery store',
  'Construction',
  'Retail',
];
export const LINKEDIN = ['Software Development', 'Investment Banking', 'Retail', 'Hospitals and Health Care'];
export const TECH = ['JavaScript', 'HTML5', 'Apache', 'React', 'Salesforce'];
export const TECH_CATEGORIES = ['Devops And Development', 'Business Intelligence And Analytics', 'CRM'];
export const KEYWORDS = [
  'summer camp',
  'machine learning',
  'cloud hosting',
  'Machine-Learning platform',
  'camp',
];
export const TOPICS = [
  'Security:Cloud Security',
  'HR:Employee Benefits',
  'cloud: cloud data',
  'Smartphones:iPhone',
];
export const LEVELS = ['emerging_intent', 'high_intent', 'very_high_intent'];
export const METROS = [
  'New York--Jersey City--Newark, NY--NJ',
  'Los Angeles--Long Beach--Anaheim, CA',
  'Chicago, IL--IN',
];
export const EVENT_NAMES = [
  'new_funding_round',
  'new_product',
  'increase_in_all_departments',
  'employee_joined_company',
];
export const TITLES = [
  'Senior Software Engineer',
  'Software Developer',
  'Backend Engineer',
  'VP of Engineering',
  'Data Scientist',
  'Machine Learning Engineer',
  'Head of Sales',
  'Account Executive',
  'Registered Nurse',
  'CEO',
  '',
];
export const JOB_LEVELS = [
  'owner',
  'c-suite',
  'vice president',
  'director',
  'manager',
  'senior non-managerial',
  'junior',
];
export const DEPARTMENTS = [
  'engineering',
  'sales',
  'marketing',
  'customer success',
  'data',
  'finance',
  'c-suite',
];
export const SKILLS = [
  'Python',
  'project management',
  'Machine Learning',
  'sales',
  'Java',
  'public speaking',
];
export const INTERESTS = ['diy', 'travel', 'Travel Photography', 'cooking', 'golf'];
export const SIZES = ['1-10', '11-50', '51-200', '201-500', '10001+'];
export const REVENUES = ['0-500K', '1M-5M', '10M-25M', '1B-10B'];

export const AS_OF = '2026-11-01T00:00:00Z';
export const NOW = Date.parse('2026-11-01T12:00:00Z');
const DAY = 86_400_000;

export interface Synthetic {
  dir: string;
  businesses: Json[];
  prospects: Json[];
  events: Json[];
}

/** Writes a seeded snapshot to a temp folder and returns its records. */
export function synthetic(seed = 1, nb = 160, np = 900): Synthetic {
  const r = rng(seed);
  const businesses: Json[] = [];
  for (let i = 0; i < nb; i++) {
    const place = r.pick(PLACES);
    const hasSite = r.chance(0.8);
    const base = r.pick(NAMES);
    businesses.push({
      business_id: hex(r, 32),
      name: `${r.chance(0.5) ? base : base.toUpperCase()}${r.pick(SUFFIXES)}`,
      domain: hasSite ? `${base.toLowerCase().replace(/[^a-z]/g, '')}${i}.com` : null,
      website: hasSite ? `https://www.${base.toLowerCase().replace(/[^a-z]/g, '')}${i}.com` : null,
      country_code: place.country,
      region_country_code: place.region,
      city_name: place.city,
      city_region: r.chance(0.4) ? r.pick(METROS) : null,
      operating_locations: r
        .some(
          PLACES.filter((p) => p.country),
          2,
        )
        .map((p) => ({
          country_code: p.country,
          region_country_code: p.region,
          city_name: p.city,
        })),
      number_of_employees_range: r.chance(0.9) ? r.pick(SIZES) : null,
      yearly_revenue_range: r.chance(0.9) ? r.pick(REVENUES) : null,
      founded_year: r.chance(0.9) ? 1990 + Math.floor(r.next() * 36) : null,
      number_of_locations: r.chance(0.9) ? Math.floor(r.next() * 60) : null,
      naics: r.pick(NAICS),
      naics_description: 'Some industry',
      google_category: r.some(GOOGLE, 2),
      linkedin_category: r.some(LINKEDIN, 1),
      company_tech_stack_tech: r.some(TECH, 3),
      company_tech_stack_categories: r.some(TECH_CATEGORIES, 2),
      website_keywords: r.some(KEYWORDS, 2),
      business_intent_topics: r.some(TOPICS, 2).map((topic) => ({ topic, intent_level: r.pick(LEVELS) })),
      is_public_company: r.chance(0.2),
    });
  }
  const prospects: Json[] = [];
  for (let i = 0; i < np; i++) {
    const place = r.pick(PLACES);
    const level = r.chance(0.9) ? r.pick(JOB_LEVELS) : null;
    const dept = r.chance(0.9) ? r.pick(DEPARTMENTS) : null;
    prospects.push({
      prospect_id: hex(r, 40),
      business_id: r.chance(0.9) ? r.pick(businesses).business_id : r.chance(0.5) ? hex(r, 32) : null,
      first_name: 'Ada',
      last_name: `Lovelace${i}`,
      full_name: `Ada Lovelace${i}`,
      country_code: place.country,
      region_country_code: place.region,
      city: place.city,
      job_title: r.pick(TITLES),
      job_level_main: level,
      job_level_array: level ? [...new Set([level, ...r.some(JOB_LEVELS, 1)])] : [],
      job_department_main: dept,
      job_department_array: dept ? [...new Set([dept, ...r.some(DEPARTMENTS, 1)])] : [],
      total_experience_months: r.chance(0.85) ? Math.floor(r.next() * 300) : null,
      current_role_months: r.chance(0.85) ? Math.floor(r.next() * 120) : null,
      skills: r.some(SKILLS, 3),
      interests: r.some(INTERESTS, 2),
      experience: [{ company_name: 'Globex', title: 'Engineer', start_date: '2020-01-01', end_date: null }],
      emails: r.chance(0.6)
        ? [{ address: `ada${i}@example.com`, type: r.pick(['professional', 'personal']), status: 'valid' }]
        : [],
      phone_numbers: r.chance(0.4) ? [{ phone_number: `+1415555${String(1000 + i).padStart(4, '0')}` }] : [],
    });
  }
  const events: Json[] = [];
  for (let i = 0; i < nb * 2; i++) {
    const name = r.pick(EVENT_NAMES);
    events.push({
      event_id: `e${i}`,
      event_name: name,
      event_time: new Date(NOW - Math.floor(r.next() * 200) * DAY - 3_600_000).toISOString(),
      business_id: r.pick(businesses).business_id,
      data: {},
    });
  }
  const dir = tempDir('pdb-search-');
  const jsonl = (rows: Json[]) => rows.map((x) => JSON.stringify(x)).join('\n') + '\n';
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ format_version: 1, as_of: AS_OF }));
  writeFileSync(join(dir, 'businesses.jsonl'), jsonl(businesses));
  writeFileSync(join(dir, 'prospects.jsonl'), jsonl(prospects));
  writeFileSync(join(dir, 'events.jsonl'), jsonl(events));
  return { dir, businesses, prospects, events };
}

// ---------------------------------------------------------------- oracle

const low = (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : null);
const phraseIn = (values: readonly string[], phrase: string) => {
  const p = foldText(phrase);
  return p.length > 0 && values.some((v) => ` ${foldText(v)} `.includes(` ${p} `));
};
const foldedIn = (values: readonly string[], v: string) => values.some((x) => foldText(x) === foldText(v));
const crcMatch = (city: string | null, region: string | null, country: string | null, value: string) => {
  const label = cityRegionCountry(city, low(region), low(country));
  if (!label || !city || !country) return false;
  const v = foldText(value);
  return v === foldText(label) || v === foldText(`${city} ${country}`);
};
const LEVEL_RANK: Record<string, number> = { emerging_intent: 0, high_intent: 1, very_high_intent: 2 };
const LEGACY_LEVELS: Record<string, string> = {
  cxo: 'c-suite',
  vp: 'vice president',
  senior: 'senior non-managerial',
  entry: 'junior',
};
const LEGACY_DEPTS: Record<string, string> = { 'customer service': 'customer success', trades: 'trade' };
const level = (v: string) => LEGACY_LEVELS[v.toLowerCase()] ?? v.toLowerCase();
const dept = (v: string) => LEGACY_DEPTS[v.toLowerCase()] ?? v.toLowerCase();
const asOfYear = new Date(AS_OF).getUTCFullYear();

function phraseFilter(values: readonly string[], f: Json, expand = (v: string) => [v]) {
  const groups: string[][] = f.values.map((v: string) => expand(v));
  const hit = (g: string[]) => g.some((p) => phraseIn(values, p));
  return f.operator === 'and' ? groups.every(hit) : groups.some(hit);
}

function withNegate(f: Json, positive: boolean) {
  return f.negate ? !positive : positive;
}
const active = (f: Json | null | undefined) =>
  f !== null &&
  f !== undefined &&
  (!('values' in f) || f.values.length > 0) &&
  (!('topics' in f) || f.topics.length > 0);

export function oracleProspects(data: Synthetic, filters: Json, exclude: string[] = []): string[] {
  const byId = new Map(data.businesses.map((b) => [b.business_id, b]));
  const out: string[] = [];
  for (const p of data.prospects) {
    const b = byId.get(p.business_id);
    const emails = p.emails as Json[];
    const phones = p.phone_numbers as Json[];
    const test = (name: string, f: Json): boolean => {
      switch (name) {
        case 'prospect_id':
          return f.values.map(low).includes(p.prospect_id);
        case 'has_email':
          return emails.length > 0 === f.value;
        case 'has_phone_number':
          return phones.length > 0 === f.value;
        case 'has_contact_details': {
          const e = emails.length > 0;
          const ph = phones.length > 0;
          return { email: e, phone: ph, email_or_phone: e || ph, email_and_phone: e && ph }[
            f.value as 'email'
          ]!;
        }
        case 'job_level':
          return f.values
            .map(level)
            .some((l: string) => p.job_level_main === l || p.job_level_array.includes(l));
        case 'job_department':
          return f.values
            .map(dept)
            .some((d: string) => p.job_department_main === d || p.job_department_array.includes(d));
        case 'business_id':
          return !!b && f.values.map(low).includes(b.business_id);
        case 'total_experience_months':
        case 'current_role_months': {
          const v = p[name];
          return v !== null && (f.gte == null || v >= f.gte) && (f.lte == null || v <= f.lte);
        }
        case 'country_code':
          return f.values.map(low).includes(low(p.country_code));
        case 'region_country_code':
          return f.values.map(low).includes(low(p.region_country_code));
        case 'company_country_code':
          return !!b && f.values.map(low).includes(low(b.country_code));
        case 'company_region_country_code':
          return !!b && f.values.map(low).includes(low(b.region_country_code));
        case 'city_region_country':
          return (
            !!b &&
            f.values.some((v: string) => crcMatch(b.city_name, b.region_country_code, b.country_code, v))
          );
        case 'company_size':
          return !!b && f.values.includes(b.number_of_employees_range);
        case 'company_revenue':
          return !!b && f.values.includes(b.yearly_revenue_range);
        case 'company_age':
          return !!b && f.values.includes(ageBucket(b.founded_year, asOfYear));
        case 'company_number_of_locations':
          return !!b && f.values.includes(locationsBucket(b.number_of_locations));
        case 'google_category':
          return !!b && f.values.some((v: string) => foldedIn(b.google_category, v));
        case 'linkedin_category':
          return !!b && f.values.some((v: string) => foldedIn(b.linkedin_category, v));
        case 'naics_category':
          return (
            !!b && b.naics !== null && f.values.some((v: string) => String(b.naics).startsWith(String(v)))
          );
        case 'job_title':
          return phraseFilter([p.job_title], f, f.include_related_job_titles ? relatedTitles : (v) => [v]);
        case 'skills':
          return phraseFilter(p.skills, f);
        case 'interests':
          return phraseFilter(p.interests, f);
        case 'company_name':
          return !!b && f.values.some((v: string) => companyKey(v) === companyKey(b.name));
        case 'has_website':
          return (!!b && !!(b.website || b.domain)) === f.value;
        case 'is_public_company':
          return (!!b && !!b.is_public_company) === f.value;
        default:
          throw new Error(`oracle: unknown prospect filter ${name}`);
      }
    };
    const ok = Object.entries(filters).every(([name, f]) => !active(f) || withNegate(f, test(name, f)));
    if (ok && !exclude.includes(p.prospect_id)) out.push(p.prospect_id);
  }
  return out;
}

export function oracleBusinesses(
  data: Synthetic,
  filters: Json,
  version: 1 | 2,
  exclude: string[] = [],
): string[] {
  const ops = filters.include_operating_locations ? filters.include_operating_locations.value : version === 1;
  const out: string[] = [];
  for (const b of data.businesses) {
    const locs = [
      { country_code: b.country_code, region_country_code: b.region_country_code, city_name: b.city_name },
      ...(ops ? b.operating_locations : []),
    ] as Json[];
    const test = (name: string, f: Json): boolean => {
      switch (name) {
        case 'business_id':
          return f.values.map(low).includes(b.business_id);
        case 'country_code':
          return locs.some((l) => l.country_code && f.values.map(low).includes(low(l.country_code)));
        case 'region_country_code':
          return locs.some(
            (l) => l.region_country_code && f.values.map(low).includes(low(l.region_country_code)),
          );
        case 'city_region_country':
          return locs.some((l) =>
            f.values.some((v: string) => crcMatch(l.city_name, l.region_country_code, l.country_code, v)),
          );
        case 'city_region':
          return !!b.city_region && f.values.some((v: string) => foldText(v) === foldText(b.city_region));
        case 'company_size':
          return f.values.includes(b.number_of_employees_range);
        case 'company_revenue':
          return f.values.includes(b.yearly_revenue_range);
        case 'company_age':
          return f.values.includes(ageBucket(b.founded_year, asOfYear));
        case 'number_of_locations':
          return f.values.includes(locationsBucket(b.number_of_locations));
        case 'google_category':
          return f.values.some((v: string) => foldedIn(b.google_category, v));
        case 'linkedin_category':
          return f.values.some((v: string) => foldedIn(b.linkedin_category, v));
        case 'naics_category':
          return b.naics !== null && f.values.some((v: string) => String(b.naics).startsWith(String(v)));
        case 'company_tech_stack_category':
          return f.values.some((v: string) => foldedIn(b.company_tech_stack_categories, v));
        case 'company_tech_stack_tech':
          return f.values.some((v: string) => foldedIn(b.company_tech_stack_tech, v));
        case 'company_name':
          return f.values.some((v: string) => companyKey(v) === companyKey(b.name));
        case 'website_keywords':
          return phraseFilter(b.website_keywords, f);
        case 'business_intent_topics': {
          const min = f.topic_intent_level ? LEVEL_RANK[f.topic_intent_level]! : 0;
          return (b.business_intent_topics as Json[]).some(
            (t) =>
              LEVEL_RANK[t.intent_level]! >= min &&
              f.topics.some((x: string) => foldText(x) === foldText(t.topic)),
          );
        }
        case 'events': {
          const since = NOW - f.last_occurrence * DAY;
          const names = f.values.map((v: string) =>
            v === 'executive_joined_company' ? 'employee_joined_company' : v,
          );
          return data.events.some(
            (e) =>
              e.business_id === b.business_id &&
              names.includes(e.event_name) &&
              Date.parse(e.event_time) >= since,
          );
        }
        case 'has_website':
          return !!(b.website || b.domain) === f.value;
        case 'is_public_company':
          return !!b.is_public_company === f.value;
        case 'include_operating_locations':
          return true;
        default:
          throw new Error(`oracle: unknown business filter ${name}`);
      }
    };
    const ok = Object.entries(filters).every(
      ([name, f]) => !active(f) || name === 'include_operating_locations' || withNegate(f, test(name, f)),
    );
    if (ok && !exclude.includes(b.business_id)) out.push(b.business_id);
  }
  return out;
}
