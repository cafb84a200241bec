/**
 * Property/fuzz test: random and mutated requests (wrong types, huge numbers, deep nesting, `__proto__`
 * keys, invalid UTF-8, missing bodies, 10–100 KB strings, unicode edges — lone surrogates, combining
 * marks, zero-width, RTL, ligatures and dotted capitals that expand when folded — and numeric edges) to
 * every route of the spec, in-process, in every field position (autocomplete `query`, match names,
 * event types, `exclude`, cursors …). No request may produce a 5xx or take longer than the hang guard,
 * a 422 has the documented `detail` shape, and a rejected request leaves the ledger and the stored data
 * unchanged. `FUZZ_RUNS` sets the request count (default 10,000).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/account/accounts.js';
import type { Engine } from '../src/engine.js';
import { handle } from '../src/facade/handle.js';
import { SPEC_ROUTES } from '../src/facade/spec.js';
import { demoEngine } from './support/demo.js';
import { fuzzBody } from './support/fuzz-corpus.js';
import { hostileString } from './support/hostile.js';

let engine: Engine;
let key: string;
let businessId = '';
let prospectId: string | undefined;

beforeAll(async () => {
  engine = await demoEngine({ rateLimit: false } as never);
  key = (await createAccount(engine, { name: 'Fuzz', partner_id: 'fuzz', credits: 1_000_000 })).api_key;
  businessId = engine.db.prepare('SELECT business_id FROM businesses LIMIT 1').pluck().get() as string;
  prospectId = engine.db.prepare('SELECT prospect_id FROM prospects LIMIT 1').pluck().get() as string;
});

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
/** No request may take longer than this (a hang guard, not a speed test). */
const HANG_GUARD_MS = 5_000;

const body = fuzzBody({ businessId, prospectId });

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
  fc
    .tuple(
      fc.constantFrom('country', 'job_title', 'company_name', 'business_intent_topics', 'skills', 'COUNTRY'),
      hostileString,
      fc.constantFrom('false', 'true', 'TRUE'),
    )
    // Passed as the request's query object: lone surrogates cannot be percent-encoded in a URL.
    .map(([f, q, sem]) => ({ field: f, query: q, semantic_search: sem })),
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
  it(`never answers 5xx or hangs, 422s are documented, rejections change nothing (${RUNS} requests)`, async () => {
    const ledger = { get: () => engine.state.value<number>('SELECT count(*) FROM credit_ledger') };
    const changes = engine.db.prepare('SELECT total_changes()').pluck();
    const statuses = new Map<number, number>();
    let slowest = 0;
    await fc.assert(
      fc.asyncProperty(
        pathArb,
        queryArb,
        headersArb,
        body,
        fc.boolean(),
        async (route, query, headers, b, withKey) => {
          const beforeLedger = await ledger.get();
          const beforeChanges = changes.get();
          const started = performance.now();
          const res = await handle(engine, {
            method: route.method,
            path: typeof query === 'string' ? route.path + query : route.path,
            query: typeof query === 'string' ? undefined : query,
            headers: withKey ? { api_key: key, ...headers } : headers,
            body: b,
          });
          const ms = performance.now() - started;
          slowest = Math.max(slowest, ms);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          // 501 is the documented answer of a spec route this engine does not serve; any other 5xx fails.
          if (res.status !== 501) expect(res.status).toBeLessThan(500);
          expect(res.status).toBeGreaterThanOrEqual(200);
          expect(ms, `${route.method} ${route.path}`).toBeLessThan(HANG_GUARD_MS);
          expect(() => JSON.stringify(res.body)).not.toThrow();
          if (res.status === 422) expectDetailShape(res.body);
          if (res.status >= 400) {
            expect(await ledger.get()).toBe(beforeLedger);
            expect(changes.get()).toBe(beforeChanges);
          }
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        },
      ),
      { numRuns: RUNS, seed: 5 },
    );
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(RUNS);
    expect(slowest).toBeLessThan(HANG_GUARD_MS);
  }, 300_000);

  it('bounds the specific hostile requests with a documented 422', async () => {
    const cases: [string, string, unknown][] = [
      ['GET', `/v1/businesses/autocomplete?field=job_title&query=${'a'.repeat(50_000)}`, undefined],
      [
        'POST',
        '/v1/prospects/match',
        { prospects_to_match: [{ full_name: 'Jane Doe', company_name: 'a'.repeat(10_000) }] },
      ],
      [
        'POST',
        '/v1/prospects/match',
        { prospects_to_match: [{ full_name: 'x', company_name: 'İ'.repeat(3_000) }] },
      ],
      [
        'POST',
        '/v1/businesses/events',
        { event_types: Array.from({ length: 10_000 }, (_, i) => `unknown_${i}`), business_ids: [businessId] },
      ],
    ];
    for (const [method, path, b] of cases) {
      const res = await handle(engine, { method, path, headers: { api_key: key }, body: b });
      expect(res.status).toBe(422);
      expectDetailShape(res.body);
      const detail = (res.body as { detail: { type: string; ctx?: { limit_value?: number } }[] }).detail;
      expect(detail).toHaveLength(1);
      expect(detail[0]!.type).toMatch(/max_(length|items)$/);
      expect(detail[0]!.ctx?.limit_value).toBeGreaterThan(0);
    }
  });
});

/** The documented 422 body: `{detail: [{loc: [str|int…], msg: str, type: str, ctx?: object}]}`, ≤ 50 entries. */
function expectDetailShape(b: unknown): void {
  const detail = (b as { detail?: unknown }).detail;
  expect(Array.isArray(detail)).toBe(true);
  const list = detail as unknown[];
  expect(list.length).toBeGreaterThan(0);
  expect(list.length).toBeLessThanOrEqual(50);
  for (const d of list) {
    const e = d as Record<string, unknown>;
    expect(Array.isArray(e.loc)).toBe(true);
    for (const part of e.loc as unknown[]) expect(['string', 'number']).toContain(typeof part);
    expect(typeof e.msg).toBe('string');
    expect(typeof e.type).toBe('string');
    if ('ctx' in e) expect(typeof e.ctx).toBe('object');
    expect(Object.keys(e).every((k) => ['loc', 'msg', 'type', 'ctx'].includes(k))).toBe(true);
  }
  expect(JSON.stringify(b).length).toBeLessThan(200_000);
}
