import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance } from '../src/account/accounts.js';
import { handle } from '../src/facade/handle.js';
import type { FacadeRequest } from '../src/facade/types.js';
import { callTool, listTools, type Caller } from '../src/mcp/server.js';
import { TOOLS_BY_NAME } from '../src/mcp/tools.js';
import { mcpFixture, type McpFixture } from './support/mcp-engine.js';

type Json = Record<string, unknown>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

let f: McpFixture;
let caller: Caller;
let businessId: string;
let prospectId: string;

/** The REST answer of a request, without the fields that differ on every call. */
async function rest(request: FacadeRequest) {
  const res = await handle(f.engine, { ...request, headers: { api_key: f.apiKey } });
  return { status: res.status, body: stable(res.body) };
}
function stable(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const { response_context: rc, correlation_id: _id, ...rest } = body as Json;
  if (!rc || typeof rc !== 'object') return rest;
  const { correlation_id: _c, time_took_in_seconds: _t, time_taken_in_seconds: _u, ...kept } = rc as Json;
  return { response_context: kept, ...rest };
}
const tool = (name: string, args: unknown) => callTool(f.engine, caller, name, args);

beforeAll(async () => {
  f = await mcpFixture();
  caller = { kind: 'api_key', apiKey: f.apiKey };
  const b = await handle(f.engine, {
    method: 'POST',
    path: '/v1/businesses',
    headers: { api_key: f.apiKey },
    body: { mode: 'preview', page_size: 1 },
  });
  businessId = ((b.body as Json).data as Json[])[0]!.business_id as string;
  const p = await handle(f.engine, {
    method: 'POST',
    path: '/v1/prospects',
    headers: { api_key: f.apiKey },
    body: { mode: 'preview', page_size: 1 },
  });
  prospectId = ((p.body as Json).data as Json[])[0]!.prospect_id as string;
});
afterAll(() => f.engine.close());

describe('tool definitions', () => {
  it('lists fourteen tools, each with an object input schema and an actionable description', () => {
    const tools = listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'match_businesses',
      'match_prospects',
      'fetch_businesses',
      'fetch_prospects',
      'business_stats',
      'prospect_stats',
      'autocomplete',
      'business_events',
      'prospect_events',
      'enrich_businesses',
      'enrich_prospects',
      'research_businesses',
      'research_prospects',
      'credits_balance',
    ]);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.description!.length).toBeGreaterThan(80);
    }
    const fetch = tools.find((t) => t.name === 'fetch_prospects')!;
    expect(fetch.description).toMatch(/ONE category filter/);
    expect(fetch.description).toMatch(/autocomplete/);
    expect(fetch.inputSchema.required).toEqual(['mode', 'page_size']);
    expect(Object.keys(fetch.inputSchema.properties!)).toContain('next_cursor');
  });

  it('accepts the REST request examples as tool arguments and rejects what the REST schema rejects', () => {
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    const schemas = new Map(listTools().map((t) => [t.name, ajv.compile(t.inputSchema)]));
    const valid = (name: string, args: unknown) => schemas.get(name)!(args);
    const examples: [string, Json][] = [
      [
        'match_businesses',
        {
          request_context: { seller_id: 'sample_seller' },
          businesses_to_match: [
            { name: 'microsoft', linkedin_url: 'https://linkedin.com/company/microsoft' },
          ],
        },
      ],
      [
        'match_prospects',
        {
          prospects_to_match: [
            {
              full_name: 'Jane Doe',
              company_name: 'Acme',
              email: null,
              phone_number: null,
              linkedin: null,
              business_id: null,
            },
          ],
        },
      ],
      [
        'fetch_prospects',
        {
          request_context: {},
          mode: 'full',
          size: 10,
          page_size: 10,
          page: 1,
          exclude: ['a5fbfab4a5fbfab4a5fbfab4a5fbfab4a5fbfab4'],
          filters: {
            job_level: { values: ['director', 'cxo'] },
            job_department: { values: ['Engineering'] },
            country_code: { values: ['US', 'CA'] },
            job_title: { values: ['Software Engineer'], include_related_job_titles: false },
            has_contact_details: { value: 'email_or_phone' },
          },
        },
      ],
      [
        'fetch_prospects',
        {
          mode: 'preview',
          page_size: 100,
          next_cursor: null,
          filters: { company_size: { type: 'includes', values: ['11-50'], negate: null } },
        },
      ],
      [
        'fetch_businesses',
        {
          mode: 'full',
          size: 500,
          page_size: 100,
          page: 1,
          filters: {
            country_code: { values: ['US'] },
            company_size: { values: ['1-10', '11-50'] },
            naics_category: { values: ['541512', 5415] },
            events: { values: ['new_funding_round'], last_occurrence: 90 },
            business_intent_topics: { topics: ['cloud: cloud data'], topic_intent_level: 'high_intent' },
          },
        },
      ],
      [
        'business_stats',
        {
          filters: {
            region_country_code: { values: ['US-CA', 'us-ga'] },
            company_size: { values: ['51-200'] },
          },
        },
      ],
      ['prospect_stats', { filters: null }],
      ['autocomplete', { field: 'country', query: 'unit' }],
      ['autocomplete', { query: 'cloude', semantic_search: true, field: 'business_intent_topics' }],
      [
        'business_events',
        {
          event_types: ['new_investment', 'executive_joined_company'],
          business_ids: ['8adce3ca1cef0c986b22310e369a0793'],
          timestamp_from: '2026-09-01',
          timestamp_to: null,
        },
      ],
      [
        'prospect_events',
        {
          event_types: ['prospect_changed_company'],
          prospect_ids: ['a5fbfab4a5fbfab4a5fbfab4a5fbfab4a5fbfab4'],
          timestamp_from: '2026-09-01T00:00:00Z',
        },
      ],
      [
        'enrich_businesses',
        {
          enrichment: 'website_traffic',
          business_ids: '8adce3ca1cef0c986b22310e369a0793',
          parameters: { month_period: '2025-07' },
        },
      ],
      [
        'enrich_businesses',
        {
          enrichment: 'company_website_keywords',
          business_ids: ['8adce3ca1cef0c986b22310e369a0793'],
          parameters: { keywords: ['iphone', 'data'] },
        },
      ],
      [
        'enrich_prospects',
        {
          enrichment: 'contact_information',
          prospect_ids: ['a5fbfab4a5fbfab4a5fbfab4a5fbfab4a5fbfab4'],
          parameters: { contact_types: ['email'] },
        },
      ],
      [
        'research_businesses',
        {
          parameters: { output_schema: { type: 'object' }, query: 'Does it sell to hospitals?' },
          businesses: [
            { business_id: '8adce3ca1cef0c986b22310e369a0793', custom_fields: { segment: 'smb' } },
          ],
        },
      ],
      [
        'research_prospects',
        {
          parameters: { output_schema: {}, prompt_template: 'Summarise {{full_name}}' },
          prospects: { prospect_id: 'a5fbfab4a5fbfab4a5fbfab4a5fbfab4a5fbfab4' },
        },
      ],
      ['credits_balance', {}],
    ];
    for (const [name, args] of examples) expect([name, valid(name, args)]).toEqual([name, true]);
    expect(valid('fetch_prospects', { mode: 'full' })).toBe(false);
    expect(valid('fetch_businesses', { mode: 'full', page_size: 501 })).toBe(false);
    expect(
      valid('fetch_prospects', { mode: 'full', page_size: 10, filters: { seniority: { values: ['x'] } } }),
    ).toBe(false);
    expect(valid('match_businesses', { businesses_to_match: [] })).toBe(false);
    expect(valid('autocomplete', { query: 'x' })).toBe(false);
    expect(
      valid('enrich_businesses', {
        enrichment: 'horoscope',
        business_ids: '8adce3ca1cef0c986b22310e369a0793',
      }),
    ).toBe(false);
  });
});

describe('tool calls answer as the REST routes do', () => {
  const cases = (): [string, Json, FacadeRequest][] => [
    [
      'match_businesses',
      {
        businesses_to_match: [
          { name: 'acme', domain: 'acme.com' },
          { linkedin_url: 'linkedin.com/company/nobody-at-all' },
        ],
      },
      { method: 'POST', path: '/v2/businesses/match' },
    ],
    [
      'match_prospects',
      {
        prospects_to_match: [
          { full_name: 'Jane Doe', company_name: 'Acme' },
          { email: 'nobody@example.org' },
        ],
      },
      { method: 'POST', path: '/v2/prospects/match' },
    ],
    [
      'fetch_businesses',
      { mode: 'full', page_size: 5, page: 2, filters: { has_website: { value: true } } },
      { method: 'POST', path: '/v1/businesses' },
    ],
    [
      'fetch_businesses',
      { mode: 'preview', page_size: 4, next_cursor: null },
      { method: 'POST', path: '/v1/businesses' },
    ],
    [
      'fetch_prospects',
      { mode: 'full', page_size: 3, filters: { country_code: { values: ['US'] } } },
      { method: 'POST', path: '/v1/prospects' },
    ],
    [
      'fetch_prospects',
      {
        mode: 'preview',
        page_size: 3,
        next_cursor: null,
        filters: { job_level: { values: ['director', 'manager'] } },
      },
      { method: 'POST', path: '/v1/prospects' },
    ],
    [
      'business_stats',
      { filters: { company_size: { values: ['11-50', '51-200'] } } },
      { method: 'POST', path: '/v2/businesses/stats' },
    ],
    ['prospect_stats', { filters: null }, { method: 'POST', path: '/v2/prospects/stats' }],
    [
      'business_events',
      { event_types: ['new_office', 'new_funding_round'], business_ids: ['__b'] },
      { method: 'POST', path: '/v2/businesses/events' },
    ],
    [
      'prospect_events',
      { event_types: ['prospect_changed_role'], prospect_ids: ['__p'] },
      { method: 'POST', path: '/v2/prospects/events' },
    ],
    [
      'research_businesses',
      {
        parameters: { output_schema: { type: 'object' }, query: 'What does it do?' },
        businesses: { business_id: '__b' },
      },
      { method: 'POST', path: '/v2/businesses/research/enrich' },
    ],
    [
      'research_prospects',
      {
        parameters: { output_schema: { type: 'object' }, query: 'Role?' },
        prospects: [{ prospect_id: '__p' }],
      },
      { method: 'POST', path: '/v2/prospects/research/enrich' },
    ],
  ];
  const fill = (v: unknown): unknown =>
    v === '__b'
      ? businessId
      : v === '__p'
        ? prospectId
        : Array.isArray(v)
          ? v.map(fill)
          : v && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]))
            : v;

  async function same(name: string, args: Json, request: FacadeRequest) {
    const expected = await rest(request);
    const before = await balance(f.engine, f.accountId);
    const got = await tool(name, args);
    const toolCost = before - (await balance(f.engine, f.accountId));
    const again = await rest(request);
    const restCost = before - toolCost - (await balance(f.engine, f.accountId));
    expect(again).toEqual(expected);
    if (expected.status >= 200 && expected.status < 300) {
      expect(got.isError).toBeUndefined();
      expect(stable(got.structuredContent)).toEqual(
        Array.isArray(expected.body) ? { items: expected.body } : expected.body,
      );
      expect(got.content[0]).toMatchObject({ type: 'text' });
      expect(JSON.parse((got.content[1] as { text: string }).text)).toEqual(got.structuredContent);
    } else {
      expect(got.isError).toBe(true);
      expect(got.structuredContent).toMatchObject({ status: expected.status });
      if (expected.status !== 422)
        expect(stable((got.structuredContent as Json).error)).toEqual(expected.body);
    }
    expect(toolCost).toBe(restCost);
  }

  it('match, fetch (offset and cursor), stats, events and research', async () => {
    for (const [name, args, request] of cases()) {
      const filled = fill(args) as Json;
      await same(name, filled, { ...request, body: filled });
    }
  });

  it('autocomplete takes its query parameters as arguments', async () => {
    const expected = await rest({
      method: 'GET',
      path: '/v2/autocomplete?field=country&query=uni&semantic_search=false',
    });
    const got = await tool('autocomplete', { field: 'country', query: 'uni', semantic_search: false });
    expect(expected.status).toBe(200);
    expect(got.structuredContent).toEqual({ items: expected.body });
    expect((got.content[0] as { text: string }).text).toMatch(/^\d+ suggestions/);
  });

  it('runs the named enrichment and reports an unknown name at `enrichment`', async () => {
    await same(
      'enrich_businesses',
      { enrichment: 'firmographics', business_ids: [businessId] },
      { method: 'POST', path: '/v2/businesses/firmographics/enrich', body: { business_ids: [businessId] } },
    );
    await same(
      'enrich_prospects',
      {
        enrichment: 'contact_information',
        prospect_ids: prospectId,
        parameters: { contact_types: ['email'] },
      },
      {
        method: 'POST',
        path: '/v2/prospects/contact_information/enrich',
        body: { prospect_ids: prospectId, parameters: { contact_types: ['email'] } },
      },
    );
    const bad = await tool('enrich_businesses', { enrichment: 'horoscope', business_ids: businessId });
    expect(bad.isError).toBe(true);
    expect((bad.structuredContent as { detail: Json[] }).detail[0]).toMatchObject({
      loc: ['enrichment'],
      type: 'type_error.enumeration',
    });
  });

  it('reports the credit balance of the caller', async () => {
    const got = await tool('credits_balance', {});
    expect(got.structuredContent).toMatchObject({
      remaining_credits: await balance(f.engine, f.accountId),
      account_type: 'paid',
    });
    expect((got.content[0] as { text: string }).text).toMatch(/credits remain \(paid account\)\.$/);
  });
});

describe('tool errors', () => {
  it('returns bad arguments as a tool result with the path of each faulty input', async () => {
    const got = await tool('fetch_prospects', {
      mode: 'everything',
      page_size: 10,
      filters: {
        company_size: { values: ['10-50'] },
        google_category: { values: ['x'] },
        linkedin_category: { values: ['y'] },
      },
    });
    expect(got.isError).toBe(true);
    const detail = (got.structuredContent as { detail: { loc: unknown[]; path: string; type: string }[] })
      .detail;
    expect(detail.map((d) => d.path)).toEqual(
      expect.arrayContaining(['mode', 'filters.company_size.values[0]']),
    );
    expect(detail.find((d) => d.path === 'mode')).toMatchObject({
      loc: ['mode'],
      type: 'type_error.enumeration',
    });
    const text = (got.content[0] as { text: string }).text;
    expect(text).toMatch(/^Invalid arguments:\n- mode: value is not a valid enumeration member/);
  });

  it('reports the one-category rule and extra arguments', async () => {
    const cat = await tool('business_stats', {
      filters: { google_category: { values: ['a'] }, naics_category: { values: ['54'] } },
    });
    expect((cat.content[0] as { text: string }).text).toMatch(/Only one category filter/);
    const extra = await tool('credits_balance', { verbose: true });
    expect(extra.structuredContent).toEqual({
      status: 422,
      detail: [
        { loc: ['verbose'], path: 'verbose', msg: 'extra fields not permitted', type: 'value_error.extra' },
      ],
    });
  });

  it('charges nothing for a refused call and reports an unknown key as a tool error', async () => {
    const before = await balance(f.engine, f.accountId);
    await tool('fetch_businesses', { mode: 'full', page_size: 0 });
    expect(await balance(f.engine, f.accountId)).toBe(before);
    const got = await callTool(
      f.engine,
      { kind: 'api_key', apiKey: 'pdb_00000000_' + 'x'.repeat(43) },
      'credits_balance',
      {},
    );
    expect(got).toMatchObject({ isError: true, structuredContent: { status: 401 } });
    expect(TOOLS_BY_NAME.size).toBe(14);
  });
});
