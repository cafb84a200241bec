/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted by value */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance } from '../src/account/accounts.js';
import { contactWaterfall } from '../src/core/enrich/contacts.js';
import { BUSINESS_ENRICHMENTS, ENRICHMENTS } from '../src/core/enrich/table.js';
import type { Engine } from '../src/engine.js';
import { buildRouter, handle } from '../src/facade/handle.js';
import { routes } from '../src/facade/routes/enrich.js';
import type { ProspectRecord } from '../src/schemas/records.js';
import {
  account,
  businessEnrichments,
  businessId,
  prospectId,
  syntheticEngine,
} from './support/job-child.js';

const router = buildRouter(routes);
let dir: string;
let engine: Engine;
let key: string;
let accountId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'enrich-'));
  engine = await syntheticEngine(dir, { businesses: 9, prospects: 20 });
  const a = await account(engine, 100_000);
  key = a.api_key;
  accountId = a.account_id;
});
afterAll(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = async (path: string, body: unknown, apiKey = key) => {
  const res = await handle(engine, { method: 'POST', path, headers: { api_key: apiKey }, body }, router);
  return res as { status: number; body: Record<string, any> };
};
const charged = async (fn: () => Promise<unknown>) => {
  const before = await balance(engine, accountId);
  await fn();
  return before - (await balance(engine, accountId));
};

const PARAMS: Record<string, unknown> = {
  company_website_keywords: { keywords: ['security'] },
  website_traffic: { month_period: '2026-10' },
};
const b0 = businessId(0);
const b1 = businessId(1);
const empty = businessId(2); // no enrichment payloads

describe('enrichment table', () => {
  it('serves the 17 business names and 3 prospect names', () => {
    expect(BUSINESS_ENRICHMENTS).toHaveLength(17);
    expect(ENRICHMENTS.filter((d) => d.entity === 'prospect').map((d) => [d.name, d.v2Name])).toEqual([
      ['contacts_information', 'contact_information'],
      ['linkedin_posts', 'linkedin_posts'],
      ['profiles', 'profiles'],
    ]);
    expect(routes).toHaveLength(60);
  });
});

describe.each(BUSINESS_ENRICHMENTS)('business enrichment %s', (name) => {
  const parameters = PARAMS[name];
  const def = ENRICHMENTS.find((d) => d.entity === 'business' && d.name === name)!;

  it('answers v1 enrich, v1 bulk_enrich and v2 enrich with the same payloads, charging 1 per entity with data', async () => {
    let one!: Awaited<ReturnType<typeof post>>;
    expect(
      await charged(
        async () => (one = await post(`/v1/businesses/${name}/enrich`, { business_id: b0, parameters })),
      ),
    ).toBe(1);
    expect(one.status).toBe(200);
    expect(one.body.entity_id).toBe(b0);
    expect(one.body.response_context.request_status).toBe('success');
    const v1payloads = def.shape === 'list' ? one.body.data : [one.body.data];
    expect(v1payloads.length).toBeGreaterThan(0);

    let bulk!: Awaited<ReturnType<typeof post>>;
    expect(
      await charged(
        async () =>
          (bulk = await post(`/v1/businesses/${name}/bulk_enrich`, {
            business_ids: [b0, b1, empty],
            parameters,
          })),
      ),
    ).toBe(
      name === 'firmographics' || name === 'technographics' || name === 'company_website_keywords' ? 3 : 2,
    );
    expect(bulk.body.total_results).toBe(bulk.body.data.length);
    expect(bulk.body.data.filter((r: any) => r.business_id === b0).map((r: any) => r.data)).toEqual(
      v1payloads,
    );

    let v2!: Awaited<ReturnType<typeof post>>;
    await charged(
      async () => (v2 = await post(`/v2/businesses/${name}/enrich`, { business_ids: b0, parameters })),
    );
    expect(v2.body.entity_id).toBeUndefined();
    expect(v2.body.total_results).toBe(1);
    expect(v2.body.data[0].business_id).toBe(b0);
    const v2payloads = def.shape === 'list' ? v2.body.data[0].data : [v2.body.data[0].data];
    expect(v2payloads).toHaveLength(v1payloads.length);
    for (const p of v2payloads) expect(p).not.toHaveProperty('entity_id');
  });

  it('returns an empty result and charges nothing for a business without the payload or unknown ids', async () => {
    if (['firmographics', 'technographics', 'company_website_keywords'].includes(name)) return;
    const unknown = 'f'.repeat(32);
    let res!: Awaited<ReturnType<typeof post>>;
    expect(
      await charged(
        async () =>
          (res = await post(`/v2/businesses/${name}/enrich`, { business_ids: [empty, unknown], parameters })),
      ),
    ).toBe(0);
    expect(res.body).toMatchObject({
      data: [],
      total_results: 0,
      response_context: { request_status: 'miss' },
    });
  });
});

describe('v2 renames and removals', () => {
  const v2 = async (name: string) =>
    (await post(`/v2/businesses/${name}/enrich`, { business_ids: [b0] })).body.data[0].data;
  const v1 = async (name: string) =>
    (await post(`/v1/businesses/${name}/enrich`, { business_id: b0 })).body.data;

  it('renames money_spend_on_website_technologies and drops entity_id from webstack', async () => {
    expect((await v1('webstack')).money_spend_on_website_technologies).toBe(1200);
    const p = await v2('webstack');
    expect(p.money_spent_on_website_technologies).toBe(1200);
    expect(p).not.toHaveProperty('money_spend_on_website_technologies');
    expect(p).not.toHaveProperty('entity_id');
  });
  it('renames latest_funding_increase_in_percents', async () => {
    expect((await v1('funding_and_acquisition')).latest_funding_increase_in_percents).toBe('25');
    expect(await v2('funding_and_acquisition')).toMatchObject({ latest_funding_increase_percentage: '25' });
  });
  it('drops display_name from business posts only', async () => {
    expect((await v1('linkedin_posts'))[0]).toHaveProperty('display_name');
    expect((await v2('linkedin_posts'))[0]).not.toHaveProperty('display_name');
    const prospectPosts = await post('/v2/prospects/linkedin_posts/enrich', {
      prospect_ids: [prospectId(0)],
    });
    expect(prospectPosts.body.data[0].data[0].display_name).toBe('First0 Last0');
  });
  it('drops the five address signals from company ratings', async () => {
    const expected = { ...(businessEnrichments(0).company_ratings_by_employees as Record<string, unknown>) };
    expect(await v1('company_ratings_by_employees')).toEqual(expected);
    for (const k of [
      'company_city',
      'company_country_code',
      'company_region',
      'company_street',
      'company_zip_code',
    ])
      delete expected[k];
    expect(await v2('company_ratings_by_employees')).toEqual(expected);
  });
  it('builds firmographics from the business record (naics as a string)', async () => {
    expect(await v2('firmographics')).toMatchObject({
      business_id: b0,
      name: 'Company 0',
      naics: '541511',
      ticker: 'NASDAQ:C0',
      number_of_employees_range: '51-200',
      linkedin_industry_category: 'software development',
      locations_distribution: [
        { country_code: 'us', locations: 1 },
        { country_code: 'ca', locations: 1 },
      ],
    });
  });
  it('filters website traffic by month and finds keywords on the website', async () => {
    const traffic = await post('/v2/businesses/website_traffic/enrich', {
      business_ids: [b0],
      parameters: { month_period: '2026-09' },
    });
    expect(traffic.body.data[0].data.visits).toBe(1000);
    const kw = await post('/v1/businesses/company_website_keywords/enrich', {
      business_id: b0,
      parameters: { keywords: ['pricing'] },
    });
    expect(kw.body.data).toMatchObject({
      keywords_indicator: 'True',
      text_results: [{ snippet: 'pricing plans', rank: 1 }],
    });
    const missing = await post('/v1/businesses/company_website_keywords/enrich', { business_id: b0 });
    expect(missing.status).toBe(422);
  });
});

describe('prospect enrichments', () => {
  const p2 = prospectId(2); // explorium professional + pdl current_professional, no phone
  const p4 = prospectId(4); // + mobile phone with a null (primary) source
  const p1 = prospectId(1); // only a zoominfo personal e-mail

  it('serves profiles in v1 and v2 with company columns from the employer', async () => {
    const v1 = await post('/v1/prospects/profiles/bulk_enrich', { prospect_ids: [p2, p4] });
    expect(v1.body.total_results).toBe(2);
    expect(v1.body.data[0].data).toMatchObject({
      full_name: 'First2 Last2',
      company_name: 'Company 2',
      job_department: 'Engineering',
      job_level_main: 'vice president',
    });
    const v2 = await post('/v2/prospects/profiles/enrich', { prospect_ids: p2 });
    expect(v2.body.data[0]).toMatchObject({ prospect_id: p2, data: { first_name: 'First2' } });
  });

  it('needs the contacts entitlement', async () => {
    const other = await account(engine, 100, []);
    const res = await post('/v2/prospects/contact_information/enrich', { prospect_ids: [p2] }, other.api_key);
    expect(res.status).toBe(403);
  });

  it('charges 2 for e-mail only, 5 for phone only and 5 for both', async () => {
    const path = '/v2/prospects/contact_information/enrich';
    expect(
      await charged(() => post(path, { prospect_ids: [p2, p4], parameters: { contact_types: ['email'] } })),
    ).toBe(4);
    expect(
      await charged(() => post(path, { prospect_ids: [p2, p4], parameters: { contact_types: ['phone'] } })),
    ).toBe(5);
    expect(await charged(() => post(path, { prospect_ids: [p2, p4] }))).toBe(10);
    expect(await charged(() => post(path, { prospect_ids: [prospectId(0)] }))).toBe(0);
  });

  it('v1 keeps nested emails and professions_email; v2 has professional_email and no emails', async () => {
    const v1 = await post('/v1/prospects/contacts_information/enrich', { prospect_id: p4 });
    expect(v1.body.data).toEqual({
      emails: [
        { address: 'p4@c4.example', type: 'professional', source: 'explorium' },
        { address: 'p4.alt@c4.example', type: 'current_professional', source: 'pdl' },
      ],
      professions_email: 'p4@c4.example',
      professional_email_status: 'valid',
      phone_numbers: [{ phone_number: '+15125550004', type: 'mobile', source: 'explorium' }],
      mobile_phone: '+15125550004',
    });
    const v2 = await post('/v2/prospects/contact_information/enrich', { prospect_ids: [p4] });
    expect(v2.body.data[0].data).toEqual({
      professional_email: 'p4@c4.example',
      professional_email_status: 'valid',
      professional_email_source: 'explorium',
      phone_numbers: [{ phone_number: '+15125550004', type: 'mobile', source: 'explorium' }],
      mobile_phone: '+15125550004',
      mobile_phone_source: 'explorium',
    });
  });

  it('full waterfall tries more sources than explorium_only', async () => {
    const path = '/v2/prospects/contact_information/enrich';
    const only = await post(path, { prospect_ids: [p1, p2], parameters: { waterfall: 'explorium_only' } });
    expect(only.body.data.map((r: any) => r.prospect_id)).toEqual([p2]);
    const full = await post(path, { prospect_ids: [p1, p2], parameters: { waterfall: 'full' } });
    expect(full.body.data.map((r: any) => r.prospect_id)).toEqual([p1, p2]);
    const record = {
      emails: [
        { address: 'a@x.example', type: 'personal', status: null, source: 'zoominfo' },
        { address: 'b@x.example', type: 'professional', status: 'valid', source: null },
      ],
      phone_numbers: [],
    } as unknown as ProspectRecord;
    expect(
      contactWaterfall(record, { contact_types: ['email'], waterfall: 'full' }).emails.map((e) => e.source),
    ).toEqual(['explorium', 'zoominfo']);
  });

  it('rejects bulk requests over 50 ids and null ids with 422', async () => {
    const ids = Array.from({ length: 51 }, (_, i) => prospectId(i));
    expect((await post('/v1/prospects/profiles/bulk_enrich', { prospect_ids: ids })).status).toBe(422);
    expect((await post('/v1/prospects/profiles/bulk_enrich', { prospect_ids: [p2, null] })).status).toBe(422);
    expect((await post('/v2/prospects/profiles/bulk_enrich', { prospect_ids: [p2] })).status).toBe(404);
  });
});
