/** The search core on the demo snapshot: every filter against a brute-force scan of the raw records. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessFilterSet, prospectFilterSet } from '../src/core/filters.js';
import type { Engine } from '../src/engine.js';
import { take } from '../src/indexes/bitset.js';
import { BusinessFilters, ProspectFilters } from '../src/schemas/filters.js';
import { DEMO_DIR, demoEngine, demoRecords } from './support/demo.js';
import { oracleBusinesses, oracleProspects, type Json, type Synthetic } from './search.oracle.js';

const present = existsSync(join(DEMO_DIR, 'manifest.json'));
let engine: Engine;
let data: Synthetic;

beforeAll(async () => {
  if (!present) return;
  engine = await demoEngine();
  data = await demoRecords();
});
afterAll(() => engine?.close());

const pick = (xs: Json[], f: (x: Json) => unknown) =>
  xs.map(f).find((v) => v !== null && v !== undefined && v !== '');

describe.skipIf(!present)('demo snapshot: filters equal a brute-force scan', () => {
  const prospectIds = () =>
    new Map(
      (
        engine.db.prepare('SELECT rowid, prospect_id FROM prospects').all() as {
          rowid: number;
          prospect_id: string;
        }[]
      ).map((r) => [r.rowid, r.prospect_id]),
    );
  const businessIds = () =>
    new Map(
      (
        engine.db.prepare('SELECT rowid, business_id FROM businesses').all() as {
          rowid: number;
          business_id: string;
        }[]
      ).map((r) => [r.rowid, r.business_id]),
    );

  const prospectCases: [string, () => Json][] = [
    ['country_code upper case, negated', () => ({ country_code: { values: ['US'], negate: true } })],
    [
      'region_country_code',
      () => ({
        region_country_code: {
          values: [String(pick(data.prospects, (p) => p.region_country_code)).toUpperCase()],
        },
      }),
    ],
    ['job_level legacy', () => ({ job_level: { values: ['cxo', 'VP', 'director'] } })],
    ['job_department legacy', () => ({ job_department: { values: ['Engineering', 'Customer service'] } })],
    ['total_experience_months one bound', () => ({ total_experience_months: { gte: 120 } })],
    ['current_role_months range', () => ({ current_role_months: { gte: 6, lte: 24 } })],
    ['has_contact_details email_and_phone', () => ({ has_contact_details: { value: 'email_and_phone' } })],
    ['has_email false', () => ({ has_email: { value: false } })],
    [
      'company_size + revenue',
      () => ({
        company_size: { values: ['11-50', '51-200'] },
        company_revenue: { values: ['1M-5M', '5M-10M', '10M-25M'] },
      }),
    ],
    [
      'naics 2-digit prefix',
      () => ({ naics_category: { values: [String(pick(data.businesses, (b) => b.naics)).slice(0, 2)] } }),
    ],
    [
      'google_category',
      () => ({
        google_category: {
          values: [String(pick(data.businesses, (b) => b.google_category?.[0])).toUpperCase()],
        },
      }),
    ],
    [
      'job_title related',
      () => ({ job_title: { values: ['Software Engineer'], include_related_job_titles: true } }),
    ],
    ['job_title operator and', () => ({ job_title: { values: ['manager', 'sales'], operator: 'and' } })],
    ['skills', () => ({ skills: { values: [String(pick(data.prospects, (p) => p.skills?.[0]))] } })],
    ['interests', () => ({ interests: { values: [String(pick(data.prospects, (p) => p.interests?.[0]))] } })],
    [
      'company_name',
      () => ({ company_name: { values: [String(pick(data.businesses, (b) => b.name)).toLowerCase()] } }),
    ],
    [
      'city_region_country',
      () => ({ city_region_country: { values: ['San Francisco, CA, US', 'London, GB', 'New York, US'] } }),
    ],
    [
      'company_age + is_public',
      () => ({ company_age: { values: ['20+'] }, is_public_company: { value: true } }),
    ],
    ['has_website negated', () => ({ has_website: { value: true, negate: true } })],
  ];
  for (const [name, make] of prospectCases) {
    it(`prospects: ${name}`, () => {
      const filters = make();
      const ids = prospectIds();
      const got = take(prospectFilterSet(engine, ProspectFilters.parse(filters)), 0, 1e9).map((r) =>
        ids.get(r)!,
      );
      expect(got).toEqual(oracleProspects(data, filters));
    });
  }

  const businessCases: [string, () => Json, 1 | 2][] = [
    ['country_code v1 (operating locations)', () => ({ country_code: { values: ['GB', 'de'] } }), 1],
    ['country_code v2', () => ({ country_code: { values: ['GB', 'de'] } }), 2],
    [
      'website_keywords and',
      () => ({
        website_keywords: {
          values: [String(pick(data.businesses, (b) => b.website_keywords?.[0]))],
          operator: 'and',
        },
      }),
      1,
    ],
    [
      'intent topics high or more',
      () => ({
        business_intent_topics: {
          topics: [String(pick(data.businesses, (b) => b.business_intent_topics?.[0]?.topic))],
          topic_intent_level: 'high_intent',
        },
      }),
      1,
    ],
    [
      'events last 30 days',
      () => ({ events: { values: [String(pick(data.events, (e) => e.event_name))], last_occurrence: 30 } }),
      1,
    ],
    [
      'tech stack',
      () => ({
        company_tech_stack_tech: {
          values: [String(pick(data.businesses, (b) => b.company_tech_stack_tech?.[0]))],
        },
      }),
      1,
    ],
    [
      'linkedin_category negated',
      () => ({
        linkedin_category: {
          values: [String(pick(data.businesses, (b) => b.linkedin_category?.[0]))],
          negate: true,
        },
      }),
      2,
    ],
  ];
  for (const [name, make, version] of businessCases) {
    it(`businesses: ${name}`, () => {
      const filters = make();
      const ids = businessIds();
      const got = take(businessFilterSet(engine, BusinessFilters.parse(filters), version), 0, 1e9).map((r) =>
        ids.get(r)!,
      );
      expect(got).toEqual(oracleBusinesses(data, filters, version));
    });
  }
});
