/**
 * The live service's documented example requests (the API reference in `shared/spec`), replayed
 * through `handle` on the demo engine. The examples are read from the document itself: inline JSON code
 * spans in request contexts (filter tables' `ex` cells, "example body" lines, enrichment parameter
 * rows) and autocomplete query strings, so the test follows the document as it changes. Each must answer
 * 2xx, except the ones listed in `EXPECTED_ERRORS` with the documented reason.
 *
 * Placeholders of the document are read as it means them: `{...}` is an object left out (`{}`), `[...]`
 * a list left out (`[]`), and an id cut short with "..." (`"a5fbfab4..."`) is an id of the demo data.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/account/accounts.js';
import type { Engine } from '../src/engine.js';
import { handle } from '../src/facade/handle.js';
import type { FacadeRequest } from '../src/facade/types.js';
import { demoEngine } from './support/demo.js';
import { sharedFile } from './support/shared-data.js';

const DOC = sharedFile('spec', 'api-reference.md', 'the live documentation examples');

interface Example {
  /** Where in the document: section heading and a short label. */
  where: string;
  request: Omit<FacadeRequest, 'headers'> & { headers?: Record<string, string> };
}

/**
 * Examples the live service itself answers with an error, and why. Keyed by a substring of `where`.
 */
const EXPECTED_ERRORS: Record<string, { status: number; why: string }> = {
  'Testing your key': {
    status: 422,
    why: 'sends {"mode":"full","page":1} without page_size, which the live schema (0.3.19) requires (§4.1, §16 #12); the live server answers 422 value_error.missing',
  },
};

const BUSINESS_FILTER_SECTION = '### 4.3';
const PROSPECT_FILTER_SECTION = '### 5.2';
const ENRICH_PARAMS_SECTION = '### 14.2';
/** Filters of v1 prospects that v2 dropped (§5.2). */
const V1_ONLY = new Set(['has_email', 'has_phone_number']);

let engine: Engine;
let key: string;
let businessId: string;
let prospectId: string;

function codeSpans(line: string): string[] {
  return [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

/** A code span as JSON, placeholders filled; undefined when it is not a JSON object or list. */
function asJson(span: string, idFor: (elided: string) => string): unknown {
  const t = span.trim();
  if (!/^[[{]/.test(t)) return undefined;
  const filled = t
    .replace(/\{\s*\.\.\.\s*\}/g, '{}')
    .replace(/\[\s*\.\.\.\s*\]/g, '[]')
    .replace(/"([0-9a-f]{4,})\.\.\."/g, (_, hex: string) => JSON.stringify(idFor(hex)));
  try {
    return JSON.parse(filled) as unknown;
  } catch {
    return undefined;
  }
}

/** Every example request of the document, in document order. */
function extractExamples(text: string): Example[] {
  const out: Example[] = [];
  let section = '';
  const idFor = (hex: string) => (section.startsWith('### 5') ? prospectId : businessId) || hex;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) {
      section = line;
      continue;
    }
    const spans = codeSpans(line);
    // Autocomplete query strings (§7).
    for (const s of spans) {
      if (s.startsWith('?field=') || /^\?[^ ]*field=/.test(s)) {
        for (const path of ['/v1/businesses/autocomplete', '/v1/prospects/autocomplete', '/v2/autocomplete'])
          out.push({ where: `${section} autocomplete ${s}`, request: { method: 'GET', path: path + s } });
      }
    }
    // Filter tables: | `name` | Shape | ... ex <json> ... |
    const filterTable = section.startsWith(BUSINESS_FILTER_SECTION)
      ? 'businesses'
      : section.startsWith(PROSPECT_FILTER_SECTION)
        ? 'prospects'
        : null;
    if (filterTable && line.startsWith('| `')) {
      const name = spans[0]!;
      // The example is the first JSON span after the shape column (`ex [...]`, or a bare `{"value":true}`).
      const cells = line.split('|').slice(3).join('|');
      const json = codeSpans(cells)
        .map((c) => asJson(c, idFor))
        .find((j) => j !== undefined);
      if (json === undefined) continue;
      const filter = Array.isArray(json) ? { values: json } : json;
      const filters = { [name]: filter };
      const entity = filterTable;
      const where = `${section.slice(0, 7)} filter ${name} ${JSON.stringify(filter)}`;
      out.push({
        where: `${where} v1 fetch`,
        request: { method: 'POST', path: `/v1/${entity}`, body: { mode: 'preview', page_size: 2, filters } },
      });
      out.push({
        where: `${where} v1 stats`,
        request: { method: 'POST', path: `/v1/${entity}/stats`, body: { filters } },
      });
      if (!V1_ONLY.has(name)) {
        out.push({
          where: `${where} v2 fetch`,
          request: {
            method: 'POST',
            path: `/v2/${entity}`,
            body: { mode: 'preview', page_size: 2, filters },
          },
        });
      }
      continue;
    }
    // Example request bodies: "example body: `{...}`", "example sends only `{...}`".
    const bodyRoute = section.includes('3.1 Businesses')
      ? '/v1/businesses/match'
      : section.startsWith('### 5.1')
        ? '/v1/prospects'
        : section.startsWith('### 4.1')
          ? '/v1/businesses'
          : null;
    if (bodyRoute && /example (body|sends)/i.test(line)) {
      for (const m of line.matchAll(/(example body[^`]*|Testing your key[^`]*)`([^`]+)`/gi)) {
        const json = asJson(m[2]!, idFor);
        if (json === undefined || Array.isArray(json)) continue;
        const label = /Testing your key/i.test(m[1]!) ? 'Testing your key' : 'example body';
        out.push({ where: `${section} ${label}`, request: { method: 'POST', path: bodyRoute, body: json } });
      }
      continue;
    }
    // Enrichment parameters (§14.2): | enrichment | ... docs example `{...}` ... |
    if (
      section.startsWith(ENRICH_PARAMS_SECTION) &&
      line.startsWith('| ') &&
      /docs( example)? `\{/.test(line)
    ) {
      const name = line.split('|')[1]!.trim().split(' ')[0]!;
      for (const s of spans) {
        const json = asJson(s, idFor);
        if (json === undefined || Array.isArray(json)) continue;
        const path = `/v1/businesses/${name}/enrich`;
        out.push({
          where: `${section.slice(0, 8)} ${name} parameters ${s}`,
          request: { method: 'POST', path, body: { business_id: businessId, parameters: json } },
        });
      }
    }
  }
  return out;
}

/** Habits the document describes in prose (no JSON span to read), sent the way it describes them. */
function proseExamples(): Example[] {
  return [
    {
      where: '§11.3 aggregation as the docs send it: no mode, a resolution',
      request: {
        method: 'POST',
        path: '/v1/credits/aggregation',
        body: { from_date: '2026-10-25', to_date: '2026-11-01', resolution: 'day' },
      },
    },
    {
      where: '§1.3 filter with a string boolean {"has_email": {"value": "true"}}',
      request: {
        method: 'POST',
        path: '/v1/prospects',
        body: { mode: 'preview', page_size: 2, filters: { has_email: { value: 'true' } } },
      },
    },
    {
      where: '§1.3 "type" discriminators inside filters',
      request: {
        method: 'POST',
        path: '/v1/businesses',
        body: {
          mode: 'preview',
          page_size: 2,
          filters: {
            country_code: { type: 'includes', values: ['US'] },
            has_website: { type: 'exists', value: true },
            website_keywords: { type: 'any_match_phrase', values: ['software'] },
            events: { type: 'includes', values: ['new_product'], last_occurrence: 90 },
          },
        },
      },
    },
    {
      where: '§1.1 API_KEY header spelling and credit-usage: true',
      request: {
        method: 'GET',
        path: '/v2/credits',
        headers: { API_KEY: '<key>', 'credit-usage': 'true' },
      },
    },
    {
      where: '§4.3 company_revenue in another case ("10m-25m")',
      request: {
        method: 'POST',
        path: '/v1/businesses/stats',
        body: { filters: { company_revenue: { values: ['10m-25m', '1m-5m'] } } },
      },
    },
  ];
}

const available = DOC !== null;

beforeAll(async () => {
  engine = await demoEngine({ rateLimit: false } as never);
  key = (await createAccount(engine, { name: 'Docs', partner_id: 'docs', credits: 1_000_000 })).api_key;
  businessId = engine.db.prepare('SELECT business_id FROM businesses LIMIT 1').pluck().get() as string;
  prospectId = engine.db.prepare('SELECT prospect_id FROM prospects LIMIT 1').pluck().get() as string;
});

describe.skipIf(!available)('the live documentation examples', () => {
  it("finds the document's examples (filters of both tables, bodies, autocomplete, parameters)", () => {
    const examples = extractExamples(readFileSync(DOC as string, 'utf8'));
    const where = examples.map((e) => e.where).join('\n');
    expect(examples.length).toBeGreaterThanOrEqual(60);
    for (const needle of [
      'filter has_website',
      'filter city_region',
      'filter business_intent_topics',
      'filter job_title',
      'filter prospect_id',
      'autocomplete ?field=country&query=unit',
      'semantic_search=true',
      'example body',
      'Testing your key',
      'website_traffic parameters',
      'bombora_intent parameters',
    ])
      expect(where).toContain(needle);
  });

  it('answers every documented example 2xx, or its documented error', async () => {
    const examples = [...extractExamples(readFileSync(DOC as string, 'utf8')), ...proseExamples()];
    const failures: string[] = [];
    for (const ex of examples) {
      const headers = ex.request.headers
        ? Object.fromEntries(Object.entries(ex.request.headers).map(([k, v]) => [k, v === '<key>' ? key : v]))
        : { api_key: key };
      const res = await handle(engine, { ...ex.request, headers });
      const expected = Object.entries(EXPECTED_ERRORS).find(([k]) => ex.where.includes(k))?.[1];
      const ok = expected ? res.status === expected.status : res.status >= 200 && res.status < 300;
      if (!ok) failures.push(`${ex.where}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      if (expected && res.status === 422) {
        expect((res.body as { detail: unknown[] }).detail.length).toBeGreaterThan(0);
      }
    }
    expect(failures).toEqual([]);
  });

  it("infers the aggregation mode from the docs' body and still refuses a body with neither", async () => {
    const send = (body: unknown) =>
      handle(engine, { method: 'POST', path: '/v2/credits/aggregation', headers: { api_key: key }, body });
    const ok = await send({ from_date: '2026-10-31', to_date: '2026-11-01', resolution: 'hour' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ mode: 'timely', resolution: 'hour' });
    const neither = await send({ from_date: '2026-10-31', to_date: '2026-11-01' });
    expect(neither.status).toBe(422);
    expect(neither.body).toEqual({
      detail: [{ loc: ['body', 'mode'], msg: 'field required', type: 'value_error.missing' }],
    });
  });
});
