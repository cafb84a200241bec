import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessFilterSet, prospectFilterSet } from '../src/core/filters.js';
import { openEngine, type Engine } from '../src/engine.js';
import { take } from '../src/indexes/bitset.js';
import { toDetail } from '../src/facade/validation.js';
import { BusinessFilters, ProspectFilters, ProspectFiltersV2 } from '../src/schemas/filters.js';
import {
  DEPARTMENTS,
  EVENT_NAMES,
  GOOGLE,
  INTERESTS,
  JOB_LEVELS,
  KEYWORDS,
  LINKEDIN,
  NOW,
  oracleBusinesses,
  oracleProspects,
  REVENUES,
  SIZES,
  SKILLS,
  synthetic,
  TECH,
  TITLES,
  TOPICS,
  type Json,
  type Synthetic,
} from './search.oracle.js';

let engine: Engine;
let data: Synthetic;
let prospectIds: Map<number, string>;
let businessIds: Map<number, string>;

beforeAll(async () => {
  data = synthetic(7);
  engine = openEngine({ clock: () => NOW });
  await engine.load(data.dir, { strict: true });
  prospectIds = new Map(
    (
      engine.db.prepare('SELECT rowid, prospect_id FROM prospects').all() as {
        rowid: number;
        prospect_id: string;
      }[]
    ).map((r) => [r.rowid, r.prospect_id]),
  );
  businessIds = new Map(
    (
      engine.db.prepare('SELECT rowid, business_id FROM businesses').all() as {
        rowid: number;
        business_id: string;
      }[]
    ).map((r) => [r.rowid, r.business_id]),
  );
});
afterAll(() => engine.close());

const prospects = (filters: Json) => {
  const parsed = ProspectFilters.parse(filters);
  return take(prospectFilterSet(engine, parsed), 0, 1e9).map((r) => prospectIds.get(r)!);
};
const businesses = (filters: Json, version: 1 | 2 = 1) => {
  const parsed = BusinessFilters.parse(filters);
  return take(businessFilterSet(engine, parsed, version), 0, 1e9).map((r) => businessIds.get(r)!);
};

const b0 = () => data.businesses[0]!;
const p0 = () => data.prospects[0]!;

/** One case per filter, with the edge readings: negate, operator, one-bound ranges, prefixes, case. */
const PROSPECT_CASES: [string, () => Json][] = [
  [
    'prospect_id (upper case)',
    () => ({ prospect_id: { values: [p0().prospect_id.toUpperCase(), 'f'.repeat(40)] } }),
  ],
  ['has_email true', () => ({ has_email: { value: true } })],
  ['has_email false', () => ({ has_email: { value: false } })],
  ['has_phone_number negated', () => ({ has_phone_number: { value: true, negate: true } })],
  ['has_contact_details email', () => ({ has_contact_details: { value: 'email' } })],
  ['has_contact_details phone', () => ({ has_contact_details: { value: 'phone' } })],
  ['has_contact_details email_or_phone', () => ({ has_contact_details: { value: 'email_or_phone' } })],
  ['has_contact_details email_and_phone', () => ({ has_contact_details: { value: 'email_and_phone' } })],
  ['job_level with legacy values', () => ({ job_level: { type: 'includes', values: ['CXO', 'vp'] } })],
  ['job_level negated', () => ({ job_level: { values: ['director'], negate: true } })],
  [
    'job_department legacy capitalised',
    () => ({ job_department: { values: ['Engineering', 'Customer service'] } }),
  ],
  ['business_id', () => ({ business_id: { values: [b0().business_id, data.businesses[1]!.business_id] } })],
  ['total_experience_months gte only', () => ({ total_experience_months: { type: 'range', gte: 120 } })],
  ['total_experience_months lte only', () => ({ total_experience_months: { lte: 24 } })],
  ['current_role_months both bounds', () => ({ current_role_months: { gte: 12, lte: 48 } })],
  ['current_role_months negated', () => ({ current_role_months: { gte: 12, lte: 48, negate: true } })],
  ['country_code upper case', () => ({ country_code: { values: ['US', 'gb'] } })],
  ['country_code negated', () => ({ country_code: { values: ['us'], negate: true } })],
  ['region_country_code upper case', () => ({ region_country_code: { values: ['US-CA', 'us-fl'] } })],
  ['company_country_code', () => ({ company_country_code: { values: ['DE', 'fr'] } })],
  ['company_region_country_code', () => ({ company_region_country_code: { values: ['GB-LND'] } })],
  [
    'city_region_country full and short',
    () => ({ city_region_country: { values: ['Miami, FL, US', 'paris, fr', 'New York, US'] } }),
  ],
  ['company_size', () => ({ company_size: { values: ['1-10', '10001+'] } })],
  ['company_revenue', () => ({ company_revenue: { values: ['1M-5M'] } })],
  ['company_age', () => ({ company_age: { values: ['0-3', '20+'] } })],
  ['company_number_of_locations', () => ({ company_number_of_locations: { values: ['21-50', '51-100'] } })],
  ['google_category folded', () => ({ google_category: { values: ['SOFTWARE COMPANY'] } })],
  ['linkedin_category', () => ({ linkedin_category: { values: ['retail'] } })],
  ['naics_category 2-digit prefix', () => ({ naics_category: { values: ['54'] } })],
  ['naics_category 4 and 6 digits', () => ({ naics_category: { values: ['5221', '621111'] } })],
  ['job_title phrase inside', () => ({ job_title: { values: ['software engineer'] } })],
  [
    'job_title related',
    () => ({ job_title: { values: ['Software Engineer'], include_related_job_titles: true } }),
  ],
  ['job_title operator and', () => ({ job_title: { values: ['engineer', 'senior'], operator: 'and' } })],
  ['skills phrase', () => ({ skills: { values: ['learning', 'python'] } })],
  ['skills operator and', () => ({ skills: { values: ['python', 'machine learning'], operator: 'and' } })],
  ['interests', () => ({ interests: { values: ['travel'] } })],
  [
    'company_name normalised',
    () => ({ company_name: { type: 'any_match', values: ['acme robotics', 'GLOBEX LLC'] } }),
  ],
  ['has_website false', () => ({ has_website: { value: false } })],
  ['is_public_company', () => ({ is_public_company: { value: true } })],
  ['empty values constrain nothing', () => ({ skills: { values: [] }, country_code: null })],
];

describe('prospect filters match a brute-force scan', () => {
  for (const [name, make] of PROSPECT_CASES) {
    it(name, () => {
      const filters = make();
      const expected = oracleProspects(data, filters);
      if (process.env.SHOW_COUNTS) console.log(name, expected.length);
      expect(prospects(filters)).toEqual(expected);
    });
  }

  it('finds related titles the plain phrase misses', () => {
    const plain = prospects({ job_title: { values: ['Software Engineer'] } });
    const related = prospects({
      job_title: { values: ['Software Engineer'], include_related_job_titles: true },
    });
    expect(related.length).toBeGreaterThan(plain.length);
  });

  it('returns exactly the complement under negate, records lacking the field included', () => {
    const pos = prospects({ total_experience_months: { gte: 100 } });
    const neg = prospects({ total_experience_months: { gte: 100, negate: true } });
    expect(pos.length + neg.length).toBe(data.prospects.length);
    expect(
      neg.some((id) => data.prospects.find((p) => p.prospect_id === id)!.total_experience_months === null),
    ).toBe(true);
  });
});

const BUSINESS_CASES: [string, () => Json, (1 | 2)?][] = [
  ['business_id', () => ({ business_id: { values: [b0().business_id.toUpperCase()] } })],
  ['country_code v1 includes operating locations', () => ({ country_code: { values: ['IL'] } }), 1],
  ['country_code v2 headquarters only', () => ({ country_code: { values: ['IL'] } }), 2],
  [
    'include_operating_locations false in v1',
    () => ({ country_code: { values: ['il'] }, include_operating_locations: { value: false } }),
    1,
  ],
  [
    'include_operating_locations true in v2',
    () => ({ region_country_code: { values: ['us-ny'] }, include_operating_locations: { value: true } }),
    2,
  ],
  [
    'city_region_country with operating locations',
    () => ({ city_region_country: { values: ['Tel Aviv, IL'] } }),
    1,
  ],
  ['city_region', () => ({ city_region: { values: ['chicago, il--in'] } })],
  ['company_size negated', () => ({ company_size: { values: ['1-10'], negate: true } })],
  ['company_revenue', () => ({ company_revenue: { values: ['0-500K', '1B-10B'] } })],
  ['company_age', () => ({ company_age: { values: ['10-20'] } })],
  ['number_of_locations', () => ({ number_of_locations: { values: ['0-1', '6-20'] } })],
  ['google_category', () => ({ google_category: { values: ['bank', 'Grocery Store'] } })],
  ['naics_category prefix', () => ({ naics_category: { values: ['5415'] } })],
  ['linkedin_category', () => ({ linkedin_category: { values: ['software development'] } })],
  ['company_tech_stack_category', () => ({ company_tech_stack_category: { values: ['crm'] } })],
  ['company_tech_stack_tech', () => ({ company_tech_stack_tech: { values: ['javascript', 'React'] } })],
  ['company_name normalised', () => ({ company_name: { values: ['Muller and Sohne', 'initech inc'] } })],
  ['website_keywords phrase', () => ({ website_keywords: { values: ['machine learning'] } })],
  [
    'website_keywords operator and',
    () => ({ website_keywords: { values: ['camp', 'cloud'], operator: 'and' } }),
  ],
  [
    'business_intent_topics any level',
    () => ({ business_intent_topics: { topics: ['security: cloud security'] } }),
  ],
  [
    'business_intent_topics high or more',
    () => ({ business_intent_topics: { topics: TOPICS.slice(0, 2), topic_intent_level: 'high_intent' } }),
  ],
  [
    'events last 30 days',
    () => ({ events: { values: ['new_funding_round', 'new_product'], last_occurrence: 30 } }),
  ],
  [
    'events v2 name, negated',
    () => ({ events: { values: ['executive_joined_company'], last_occurrence: 90, negate: true } }),
  ],
  ['has_website', () => ({ has_website: { value: true } })],
  ['is_public_company false', () => ({ is_public_company: { value: false } })],
];

describe('business filters match a brute-force scan', () => {
  for (const [name, make, version = 1] of BUSINESS_CASES) {
    it(name, () => {
      const filters = make();
      const expected = oracleBusinesses(data, filters, version);
      if (process.env.SHOW_COUNTS) console.log(name, expected.length);
      expect(businesses(filters, version)).toEqual(expected);
    });
  }

  it('widens location filters to operating locations only in v1 by default', () => {
    expect(businesses({ country_code: { values: ['il'] } }, 1).length).toBeGreaterThan(
      businesses({ country_code: { values: ['il'] } }, 2).length,
    );
  });
});

// ---------------------------------------------------------------- property tests

const pf = {
  has_email: fc.record({ value: fc.boolean() }),
  has_contact_details: fc.record({
    value: fc.constantFrom('email', 'phone', 'email_or_phone', 'email_and_phone'),
  }),
  job_level: fc.record({ values: fc.subarray([...JOB_LEVELS, 'cxo', 'VP'], { minLength: 1, maxLength: 3 }) }),
  job_department: fc.record({
    values: fc.subarray([...DEPARTMENTS, 'Engineering'], { minLength: 1, maxLength: 3 }),
  }),
  total_experience_months: fc.record({
    gte: fc.option(fc.nat(300), { nil: undefined }),
    lte: fc.option(fc.nat(300), { nil: undefined }),
  }),
  current_role_months: fc.record({
    gte: fc.option(fc.nat(120), { nil: undefined }),
    lte: fc.option(fc.nat(120), { nil: undefined }),
  }),
  country_code: fc.record({
    values: fc.subarray(['us', 'GB', 'de', 'ca', 'fr', 'il', 'jp'], { minLength: 1, maxLength: 3 }),
  }),
  company_country_code: fc.record({
    values: fc.subarray(['US', 'gb', 'de', 'fr'], { minLength: 1, maxLength: 2 }),
  }),
  company_size: fc.record({ values: fc.subarray(SIZES, { minLength: 1, maxLength: 2 }) }),
  company_revenue: fc.record({ values: fc.subarray(REVENUES, { minLength: 1, maxLength: 2 }) }),
  google_category: fc.record({ values: fc.subarray(GOOGLE, { minLength: 1, maxLength: 2 }) }),
  job_title: fc.record({
    values: fc.subarray(TITLES.filter(Boolean).concat(['engineer', 'software engineer']), {
      minLength: 1,
      maxLength: 2,
    }),
    operator: fc.constantFrom('or', 'and'),
    include_related_job_titles: fc.boolean(),
  }),
  skills: fc.record({
    values: fc.subarray(SKILLS, { minLength: 1, maxLength: 2 }),
    operator: fc.constantFrom('or', 'and'),
  }),
  interests: fc.record({ values: fc.subarray(INTERESTS, { minLength: 1, maxLength: 2 }) }),
  has_website: fc.record({ value: fc.boolean() }),
};

const withNegate = <T extends object>(arb: fc.Arbitrary<T>) =>
  fc.tuple(arb, fc.boolean()).map(([f, negate]) => (negate ? { ...f, negate } : f));

describe('random filter combinations', () => {
  it('give the same prospect ids as a brute-force scan', () => {
    const entries = Object.entries(pf).map(
      ([k, arb]) => [k, withNegate(arb as fc.Arbitrary<object>)] as const,
    );
    const combo = fc
      .uniqueArray(fc.constantFrom(...entries), { minLength: 1, maxLength: 4, selector: (e) => e[0] })
      .chain((picked) => fc.tuple(...picked.map(([k, arb]) => arb.map((v) => [k, v] as const))))
      .map((pairs) => Object.fromEntries(pairs) as Json);
    fc.assert(
      fc.property(combo, (filters) => {
        expect(prospects(filters)).toEqual(oracleProspects(data, filters));
      }),
      { numRuns: 150, seed: 42 },
    );
  });

  it('give the same business ids as a brute-force scan', () => {
    const bf = {
      country_code: fc.record({
        values: fc.subarray(['us', 'GB', 'il', 'fr'], { minLength: 1, maxLength: 2 }),
      }),
      company_size: pf.company_size,
      linkedin_category: fc.record({ values: fc.subarray(LINKEDIN, { minLength: 1, maxLength: 2 }) }),
      company_tech_stack_tech: fc.record({ values: fc.subarray(TECH, { minLength: 1, maxLength: 2 }) }),
      website_keywords: fc.record({
        values: fc.subarray(KEYWORDS, { minLength: 1, maxLength: 2 }),
        operator: fc.constantFrom('or', 'and'),
      }),
      business_intent_topics: fc.record({
        topics: fc.subarray(TOPICS, { minLength: 1, maxLength: 2 }),
        topic_intent_level: fc.constantFrom('emerging_intent', 'high_intent', 'very_high_intent'),
      }),
      events: fc.record({
        values: fc.subarray(EVENT_NAMES, { minLength: 1, maxLength: 2 }),
        last_occurrence: fc.integer({ min: 1, max: 200 }),
      }),
      is_public_company: fc.record({ value: fc.boolean() }),
    };
    const entries = Object.entries(bf).map(
      ([k, arb]) => [k, withNegate(arb as fc.Arbitrary<object>)] as const,
    );
    const combo = fc
      .uniqueArray(fc.constantFrom(...entries), { minLength: 1, maxLength: 4, selector: (e) => e[0] })
      .chain((picked) => fc.tuple(...picked.map(([k, arb]) => arb.map((v) => [k, v] as const))))
      .map((pairs) => Object.fromEntries(pairs) as Json);
    fc.assert(
      fc.property(combo, fc.constantFrom(1 as const, 2 as const), (filters, version) => {
        const f = {
          ...filters,
          events: filters.events
            ? { ...filters.events, last_occurrence: Math.min(365, filters.events.last_occurrence) }
            : undefined,
        };
        expect(businesses(f, version)).toEqual(oracleBusinesses(data, f, version));
      }),
      { numRuns: 150, seed: 43 },
    );
  });
});

// ---------------------------------------------------------------- validation

describe('filter validation', () => {
  const issues = (
    schema: {
      safeParse(v: unknown): {
        success: boolean;
        error?: { issues: { path: PropertyKey[]; code: string; message: string }[] };
      };
    },
    v: unknown,
  ) =>
    schema.safeParse(v).error?.issues.map((i) => ({ path: i.path, code: i.code, message: i.message })) ?? [];

  it('rejects unknown filter names with their path', () => {
    expect(issues(ProspectFilters, { seniority: { values: ['x'] } })).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys' }),
    ]);
  });

  it('rejects unknown members inside a filter but accepts type', () => {
    expect(ProspectFilters.safeParse({ country_code: { type: 'includes', values: ['US'] } }).success).toBe(
      true,
    );
    expect(issues(ProspectFilters, { country_code: { values: ['us'], extra: 1 } })[0]).toMatchObject({
      path: ['country_code'],
      code: 'unrecognized_keys',
    });
  });

  it('names the path of an invalid enumeration value and lists the permitted values', () => {
    const [issue] = issues(ProspectFilters, {
      job_department: { values: ['engineering', 'Information Technology'] },
    });
    expect(issue).toMatchObject({ path: ['job_department', 'values', 1], code: 'invalid_value' });
    expect(issue!.message).toContain('administration');
    // Enumerations are read in any case; a value of no member still lists the permitted ones.
    const bad = BusinessFilters.safeParse({ company_size: { values: ['10-50'] } }, { reportInput: true });
    expect(toDetail(bad.error!.issues, 'body', BusinessFilters)).toEqual([
      {
        loc: ['body', 'company_size', 'values', 0],
        msg: expect.stringContaining("permitted: '1-10', '11-50'"),
        type: 'type_error.enumeration',
        ctx: { enum_values: expect.arrayContaining(['11-50', '10001+']) },
      },
    ]);
  });

  it("reads real clients' habits: string booleans and enumeration values in any case", () => {
    const parsed = ProspectFilters.parse({
      has_email: { value: 'true' },
      has_website: { value: 'False', negate: 'false' },
      company_revenue: { values: ['10m-25m', '1B-10B'] },
      company_size: { values: ['10001+'] },
      job_title: { values: ['Engineer'], include_related_job_titles: 'TRUE', operator: 'AND' },
      has_contact_details: { value: 'EMAIL' },
    });
    expect(parsed).toMatchObject({
      has_email: { value: true },
      has_website: { value: false, negate: false },
      company_revenue: { values: ['10M-25M', '1B-10B'] },
      job_title: { include_related_job_titles: true, operator: 'and' },
      has_contact_details: { value: 'email' },
    });
    expect(ProspectFilters.safeParse({ has_email: { value: 'maybe' } }).success).toBe(false);
    expect(ProspectFilters.safeParse({ seniority: { values: ['vp'] } }).success).toBe(false);
  });

  it('rejects unknown country and region codes with a clear message', () => {
    expect(issues(ProspectFilters, { country_code: { values: ['US', 'XX'] } })[0]).toMatchObject({
      path: ['country_code', 'values', 1],
      message: expect.stringContaining('ISO 3166-1'),
    });
    expect(issues(BusinessFilters, { region_country_code: { values: ['us-zz'] } })[0]).toMatchObject({
      path: ['region_country_code', 'values', 0],
    });
  });

  it('allows only one category filter per request', () => {
    expect(
      issues(ProspectFilters, { google_category: { values: ['a'] }, naics_category: { values: ['54'] } }),
    ).toEqual([
      expect.objectContaining({ path: [], message: expect.stringContaining('Only one category filter') }),
    ]);
    expect(
      issues(BusinessFilters, { linkedin_category: { values: ['a'] }, naics_category: { values: ['54'] } }),
    ).toHaveLength(1);
    expect(
      BusinessFilters.safeParse({ linkedin_category: { values: ['a'] }, naics_category: null }).success,
    ).toBe(true);
  });

  it('checks naics codes, id lists, job title and business id limits', () => {
    expect(issues(ProspectFilters, { naics_category: { values: ['5'] } })[0]).toMatchObject({
      path: ['naics_category', 'values', 0],
    });
    expect(issues(ProspectFilters, { prospect_id: { values: ['abc'] } })[0]).toMatchObject({
      path: ['prospect_id', 'values', 0],
    });
    expect(issues(ProspectFilters, { job_title: { values: Array(301).fill('x') } })[0]).toMatchObject({
      path: ['job_title', 'values'],
      code: 'too_big',
    });
    expect(
      issues(ProspectFilters, { business_id: { values: Array(10_001).fill('a'.repeat(32)) } })[0],
    ).toMatchObject({
      path: ['business_id', 'values'],
      code: 'too_big',
    });
    expect(issues(BusinessFilters, { events: { values: ['new_product'] } })[0]).toMatchObject({
      path: ['events', 'last_occurrence'],
    });
    expect(issues(BusinessFilters, { business_intent_topics: { topics: [] } })[0]).toMatchObject({
      path: ['business_intent_topics', 'topics'],
    });
  });

  it('drops has_email and has_phone_number from v2 prospect filters', () => {
    expect(ProspectFilters.safeParse({ has_email: { value: true } }).success).toBe(true);
    expect(issues(ProspectFiltersV2, { has_email: { value: true } })[0]).toMatchObject({
      code: 'unrecognized_keys',
    });
    expect(ProspectFiltersV2.safeParse({ has_contact_details: { value: 'email' } }).success).toBe(true);
  });
});
