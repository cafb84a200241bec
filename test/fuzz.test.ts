/**
 * Property/fuzz test: ≥ 10,000 random and mutated requests (wrong types, huge numbers, deep nesting,
 * `__proto__` keys, invalid UTF-8, missing bodies) to every route of the spec, in-process. No request
 * may produce a 500, and a rejected request must leave the ledger and the stored data unchanged.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/account/accounts.js';
import { accountStatements } from '../src/account/ledger.js';
import type { Engine } from '../src/engine.js';
import { handle } from '../src/facade/handle.js';
import { SPEC_ROUTES } from '../src/facade/spec.js';
import { demoEngine } from './support/demo.js';

let engine: Engine;
let key: string;
let businessId = '';
let prospectId: string;

beforeAll(async () => {
  engine = await demoEngine({ rateLimit: false } as never);
  key = createAccount(engine, { name: 'Fuzz', partner_id: 'fuzz', credits: 1_000_000 }).api_key;
  businessId = engine.db.prepare('SELECT business_id FROM businesses LIMIT 1').pluck().get() as string;
  prospectId = engine.db.prepare('SELECT prospect_id FROM prospects LIMIT 1').pluck().get() as string;
});

/** Valid-ish seeds per route family; mutations start from these. */
function seeds(): Record<string, unknown>[] {
  return [
    { businesses_to_match: [{ name: 'acme', domain: 'acme.com' }] },
    { prospects_to_match: [{ full_name: 'Jane Doe', company_name: 'Acme' }] },
    { mode: 'preview', page_size: 3, filters: { country_code: { values: ['us'] } } },
    { mode: 'full', page_size: 2, next_cursor: null, filters: { job_level: { values: ['director'] } } },
    { filters: { company_size: { values: ['11-50'] } } },
    {
      from_date: '2026-10-01',
      to_date: '2026-10-02',
      mode: 'timely',
      resolution: 'hour',
      timezone: 'Europe/Paris',
    },
    { event_types: ['new_product'], business_ids: [businessId] },
    { enrollment_key: 'fuzz', event_types: ['new_product'], business_ids: [businessId] },
    { business_id: businessId },
    { prospect_ids: [prospectId] },
    { partner_id: 'fuzz', webhook_url: 'http://127.0.0.1:9/hook' },
  ];
}

const nasty = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  fc.constantFrom(
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER * 1000,
    -1,
    0,
    1.5,
    '',
    'null',
    true,
    null,
    [],
    {},
    '\u0000',
    '𝔘\uD800',
  ),
  fc
    .integer({ min: 1, max: 12_000 })
    .map((d) => JSON.parse('['.repeat(Math.min(d, 2000)) + ']'.repeat(Math.min(d, 2000))) as unknown),
  fc.constant(
    JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}') as unknown,
  ),
);

function mutate(seed: Record<string, unknown>, path: string[], value: unknown): unknown {
  const copy = structuredClone(seed) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const p of path.slice(0, -1)) {
    const next = Object.hasOwn(node, p) ? node[p] : undefined;
    if (next === null || typeof next !== 'object') break;
    node = next as Record<string, unknown>;
  }
  const last = path.at(-1) ?? 'x';
  if (value === undefined) delete node[last];
  else Object.defineProperty(node, last, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

const body = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...seeds()),
        fc.array(
          fc.constantFrom(
            'mode',
            'page_size',
            'filters',
            'values',
            'businesses_to_match',
            '0',
            'name',
            'next_cursor',
            'from_date',
            '__proto__',
            'size',
            'extra',
          ),
          { minLength: 1, maxLength: 3 },
        ),
        fc.option(nasty, { nil: undefined }),
      )
      .map(([s, p, v]) => mutate(s, p, v)),
  },
  { weight: 2, arbitrary: fc.anything() },
  { weight: 1, arbitrary: fc.string().map((s) => `{"mode": ${s}`) },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ maxLength: 64 })
      .map((b) =>
        Buffer.concat([Buffer.from('{"a":"'), Buffer.from(b), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      '   ',
      'null',
      '[]',
      '{}',
      '{"__proto__":{"x":1}}',
      '9'.repeat(400),
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(...seeds()).map((s) => JSON.stringify(s)) },
);

const pathArb = fc
  .tuple(
    fc.constantFrom(...SPEC_ROUTES),
    fc.oneof(
      fc.constant('1'),
      fc.string({ maxLength: 12 }),
      fc.constantFrom('fuzz', '1000001', '-5', '%ZZ', businessId),
    ),
  )
  .map(([[method, template], param]) => ({
    method,
    path: template.replace(/\{[^}]+\}/g, encodeURIComponent(param)),
  }));

const queryArb = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    '?field=country&query=uni',
    '?field=nope',
    '?semantic_search=maybe&field=job_title',
    '?status=queued&skip=-1',
    '?force=yes',
    '?field=country&query=%E0%A4%A',
  ),
);

const headersArb = fc.oneof(
  { weight: 8, arbitrary: fc.constant<Record<string, string>>({}) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/json; charset=utf-8' },
      { 'credit-usage': 'true' },
      { 'content-type': 'multipart/form-data; boundary=x' },
    ),
  },
);

describe('fuzzing every route', () => {
  it('never answers 500 and leaves ledger and data unchanged on rejection (10,000 requests)', async () => {
    const ledger = accountStatements(engine.db).ledgerCount;
    const changes = engine.db.prepare('SELECT total_changes()').pluck();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        pathArb,
        queryArb,
        headersArb,
        body,
        fc.boolean(),
        async (route, query, headers, b, withKey) => {
          const beforeLedger = ledger.get();
          const beforeChanges = changes.get();
          const res = await handle(engine, {
            method: route.method,
            path: route.path + query,
            headers: withKey ? { api_key: key, ...headers } : headers,
            body: b,
          });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          expect(res.status).not.toBe(500);
          expect(res.status).toBeGreaterThanOrEqual(200);
          expect(() => JSON.stringify(res.body)).not.toThrow();
          if (res.status >= 400) {
            expect(ledger.get()).toBe(beforeLedger);
            expect(changes.get()).toBe(beforeChanges);
          }
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        },
      ),
      { numRuns: 10_000, seed: 5 },
    );
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(10_000);
  }, 120_000);
});
