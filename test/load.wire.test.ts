/**
 * The pre-built fetch records (`store/wire.ts`) against a reference: the earlier, plainly written
 * version of the same functions (object spreads, `createHash`). Same keys, same order, same values,
 * hence the same stored bytes, for the demo records and random variations of their optional parts.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUNTRY_NAME_BY_CODE, LEGACY_JOB_LEVELS, REGION_NAME_BY_CODE } from '../src/schemas/enums.js';
import type { BusinessRecord, ProspectRecord } from '../src/schemas/records.js';
import { validator } from '../src/store/validate.js';
import { packJson } from '../src/store/msgpack.js';
import {
  BUSINESS_PREVIEW_KEYS,
  businessRecord,
  pick,
  PROSPECT_PREVIEW_KEYS,
  prospectRecord,
  wireCodec,
  type FetchMode,
} from '../src/store/wire.js';
import { entries } from './support/entries.js';

const demo = (stream: 'businesses' | 'prospects'): unknown[] => {
  const validate = validator(stream);
  return gunzipSync(readFileSync(new URL(`../fixtures/demo/${stream}.jsonl.gz`, import.meta.url)))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const v = validate(JSON.parse(l));
      if (!v.ok) throw new Error(v.reason);
      return v.record;
    });
};
const BUSINESSES = demo('businesses') as BusinessRecord[];
const PROSPECTS = demo('prospects') as ProspectRecord[];

const LEGACY_LEVEL_OF = new Map(Object.entries(LEGACY_JOB_LEVELS).map(([legacy, level]) => [level, legacy]));

function referenceProspect(
  p: ProspectRecord,
  row: { company_name: string | null; company_website: string | null; company_linkedin: string | null },
  mode: FetchMode,
) {
  const levels = p.job_level_array.length ? p.job_level_array : p.job_level_main ? [p.job_level_main] : [];
  const departments = p.job_department_array.length
    ? p.job_department_array
    : p.job_department_main
      ? [p.job_department_main]
      : [];
  const email = p.emails.find((e) => e.type === 'professional' || e.type === 'current_professional');
  const base = {
    prospect_id: p.prospect_id,
    professional_email_hashed: email
      ? createHash('sha256').update(email.address.trim().toLowerCase()).digest('hex')
      : null,
    first_name: p.first_name,
    last_name: p.last_name,
    full_name: p.full_name,
    country_name:
      p.country_name ?? (p.country_code ? (COUNTRY_NAME_BY_CODE.get(p.country_code) ?? null) : null),
    region_name:
      p.region_name ??
      (p.region_country_code ? (REGION_NAME_BY_CODE.get(p.region_country_code) ?? null) : null),
    city: p.city,
  };
  const company = { company_name: row.company_name, company_website: row.company_website };
  const job = {
    job_department: p.job_department_main,
    job_department_array: departments,
    job_department_main: p.job_department_main,
    job_seniority_level: levels.length ? levels.map((l) => LEGACY_LEVEL_OF.get(l) ?? l) : [null],
    job_level_array: levels,
    job_level_main: p.job_level_main,
    job_title: p.job_title,
    business_id: p.business_id,
  };
  if (mode === 'preview') return { ...base, ...company, ...job };
  return {
    ...base,
    linkedin: p.linkedin,
    linkedin_url_array: p.linkedin_url_array,
    experience: p.experience
      .map((x) => [x.title, x.company_name].filter(Boolean).join(' at '))
      .filter((s) => s.length > 0),
    skills: p.skills,
    interests: p.interests,
    ...company,
    company_linkedin: row.company_linkedin,
    ...job,
  };
}

function referenceBusiness(b: BusinessRecord, events: string[], mode: FetchMode) {
  const preview = {
    business_id: b.business_id,
    name: b.name,
    domain: b.domain,
    logo: b.logo,
    website: b.website,
    country_name:
      b.country_name ?? (b.country_code ? (COUNTRY_NAME_BY_CODE.get(b.country_code) ?? null) : null),
    region:
      b.region ?? (b.region_country_code ? (REGION_NAME_BY_CODE.get(b.region_country_code) ?? null) : null),
    city_name: b.city_name,
    number_of_employees_range: b.number_of_employees_range,
    yearly_revenue_range: b.yearly_revenue_range,
    naics: b.naics,
    naics_description: b.naics_description,
  };
  if (mode === 'preview') return preview;
  return {
    ...preview,
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

const same = (a: unknown, b: unknown) => {
  if (!wireCodec.pack(a).equals(wireCodec.pack(b)))
    expect(Object.entries(a as object)).toEqual(Object.entries(b as object));
};
const COMPANY = {
  company_name: 'Acme',
  company_website: null,
  company_linkedin: 'https://linkedin.com/company/acme',
};
const maybe = fc.constantFrom<string | null>(null, '', 'Engineer', 'Acme');
/** The stored full record, and the preview that fetch picks from it. */
const prospect = (p: ProspectRecord, mode: FetchMode) => {
  const full = prospectRecord(p, COMPANY);
  return mode === 'full' ? full : pick(full, PROSPECT_PREVIEW_KEYS);
};
const business = (b: BusinessRecord, mode: FetchMode) => {
  const full = businessRecord(b, ['new_product']);
  return mode === 'full' ? full : pick(full, BUSINESS_PREVIEW_KEYS);
};

describe('pre-built fetch records', () => {
  it('match the reference for every demo record, in both modes', () => {
    for (const mode of ['full', 'preview'] as const) {
      for (const p of PROSPECTS) same(prospect(p, mode), referenceProspect(p, COMPANY, mode));
      for (const b of BUSINESSES) same(business(b, mode), referenceBusiness(b, ['new_product'], mode));
    }
  });

  it('match the reference when optional parts are missing or empty', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: PROSPECTS.length - 1 }),
        fc.array(fc.tuple(maybe, maybe), { maxLength: 4 }),
        fc.array(fc.constantFrom('professional', 'current_professional', 'personal'), { maxLength: 3 }),
        fc.boolean(),
        fc.boolean(),
        (at, experience, emailTypes, noLevels, noNames) => {
          const p: ProspectRecord = {
            ...PROSPECTS[at]!,
            experience: experience.map(([title, company_name]) => ({
              title,
              company_name,
              start_date: null,
              end_date: null,
            })),
            emails: emailTypes.map((type, i) => ({
              address: ` User${i}@Example.com `,
              type,
              status: null,
              source: null,
            })),
          } as ProspectRecord;
          if (noLevels) Object.assign(p, { job_level_array: [], job_department_array: [] });
          if (noNames) Object.assign(p, { country_name: null, region_name: null });
          for (const mode of ['full', 'preview'] as const)
            same(prospect(p, mode), referenceProspect(p, COMPANY, mode));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('are written by packJson as MessagePack that msgpackr reads back as it reads its own', () => {
    const roundTrip = (v: unknown) => {
      expect(entries(wireCodec.unpack(packJson(v)))).toEqual(entries(wireCodec.unpack(wireCodec.pack(v))));
    };
    for (const p of PROSPECTS.slice(0, 500)) roundTrip(prospectRecord(p, COMPANY));
    for (const b of BUSINESSES.slice(0, 200)) roundTrip(businessRecord(b, []));
    fc.assert(fc.property(fc.jsonValue(), roundTrip), { numRuns: 2000 });
    const text = fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\u0000'), maxLength: 70000 });
    fc.assert(fc.property(fc.array(text, { maxLength: 3 }), roundTrip), { numRuns: 100 });
    for (const n of [
      0,
      127,
      128,
      255,
      256,
      65535,
      65536,
      2 ** 32 - 1,
      2 ** 32,
      -1,
      -32,
      -33,
      -128,
      -129,
      -32768,
      -32769,
      -(2 ** 31),
      -(2 ** 31) - 1,
      1.5,
      -0.25,
      Number.MAX_SAFE_INTEGER,
    ]) {
      roundTrip(n);
    }
    const big = Object.fromEntries(Array.from({ length: 70000 }, (_, i) => [`k${i}`, i]));
    expect(entries(wireCodec.unpack(packJson(big)))).toEqual(entries(big));
    // Values outside JSON go to msgpackr whole.
    for (const odd of [undefined, new Date(0), new Uint8Array([1]), NaN, { a: [1, undefined] }]) {
      expect(wireCodec.unpack(packJson(odd))).toEqual(wireCodec.unpack(wireCodec.pack(odd)));
    }
  });
});
