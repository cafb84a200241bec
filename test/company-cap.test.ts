/**
 * `max_per_company` on prospect fetch, over the demo snapshot: the capped sequence equals a brute-force
 * oracle (filters from `search.oracle.ts`, then the documented rule: most senior level, then snapshot
 * order, first N per business, result in snapshot order), for cursor walks and offset walks alike;
 * and `capPerCompany` alone on random sets of rows (sparse, dense, following companies), which reach
 * both of its paths and every way a business can miss its first N, against the same rule.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capPerCompany, SENIORITY } from '../src/core/company-cap.js';
import { fetchProspects } from '../src/core/fetch.js';
import type { Engine } from '../src/engine.js';
import { grantCredits } from '../src/account/accounts.js';
import { Bitset } from '../src/indexes/bitset.js';
import { prospectIndex } from '../src/indexes/prospects.js';
import { ProspectsFetchRequestV1, ProspectsFetchRequestV2 } from '../src/schemas/search.js';
import { DEMO_DIR, demoEngine, demoRecords } from './support/demo.js';
import { oracleProspects, type Json, type Synthetic } from './search.oracle.js';

const present = existsSync(join(DEMO_DIR, 'manifest.json'));
let engine: Engine;
let data: Synthetic;
let byId: Map<string, Json>;
let rank: Map<string, number>;
/** Prospect id of each rowid, and the rowids in snapshot order. */
let idOf: Map<number, string>;
let rowids: number[];

beforeAll(async () => {
  if (!present) return;
  engine = await demoEngine();
  data = await demoRecords();
  byId = new Map(data.prospects.map((p) => [p.prospect_id as string, p]));
  rank = new Map(data.prospects.map((p) => [p.prospect_id as string, seniority(p)]));
  const rows = engine.db.prepare('SELECT rowid AS r, prospect_id AS id FROM prospects').all() as {
    r: number;
    id: string;
  }[];
  idOf = new Map(rows.map((x) => [x.r, x.id]));
  const order = new Map(data.prospects.map((p, i) => [p.prospect_id as string, i]));
  rowids = rows.map((x) => x.r).sort((a, b) => order.get(idOf.get(a)!)! - order.get(idOf.get(b)!)!);
});
afterAll(() => engine?.close());

const seniority = (p: Json): number => {
  const levels = [p.job_level_main ?? p.job_level, ...((p.job_level_array as string[] | null) ?? [])].filter(
    Boolean,
  );
  const ranks = levels.map((l) => SENIORITY.indexOf(String(l).toLowerCase() as never)).filter((r) => r >= 0);
  return ranks.length ? Math.min(...ranks) : SENIORITY.length;
};

/** The capped ids in snapshot order, by the README's rule, from the raw records. */
function oracle(filters: Json, n: number, exclude: string[]): string[] {
  return capIds(oracleProspects(data, filters, exclude), n);
}

/** The README's rule applied to matching ids given in snapshot order. */
function capIds(matching: string[], n: number): string[] {
  const order = new Map(matching.map((id, i) => [id, i]));
  const groups = new Map<string, string[]>();
  const kept = new Set<string>();
  for (const id of matching) {
    const business = byId.get(id)!.business_id as string | null;
    if (!business) kept.add(id);
    else {
      const ids = groups.get(business);
      if (ids) ids.push(id);
      else groups.set(business, [id]);
    }
  }
  for (const ids of groups.values()) {
    ids.sort((a, b) => rank.get(a)! - rank.get(b)! || order.get(a)! - order.get(b)!);
    for (const id of ids.slice(0, n)) kept.add(id);
  }
  return matching.filter((id) => kept.has(id));
}

const FILTERS: (() => Json)[] = [
  () => ({}),
  () => ({ country_code: { values: ['us', 'gb'] } }),
  () => ({ job_level: { values: ['manager', 'director', 'c-suite'] } }),
  () => ({ job_department: { values: ['engineering', 'sales'] } }),
  () => ({ has_contact_details: { value: 'email_or_phone' } }),
  // Sparse sets (under a tenth of the crowded businesses' rows): the counting path of the cap.
  () => ({ country_code: { values: ['gb'] }, job_department: { values: ['sales', 'engineering'] } }),
  () => ({ job_level: { values: ['director'] }, company_size: { values: ['51-200'] } }),
  () => ({ company_size: { values: ['11-50', '51-200'] }, job_level: { values: ['manager'], negate: true } }),
];

describe.skipIf(!present)('max_per_company', () => {
  it('cursor walks and offset walks give the oracle sequence and total', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: FILTERS.length - 1 }),
        fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constant(100)),
        fc.integer({ min: 60, max: 100 }),
        fc.array(fc.nat(9_999), { maxLength: 5 }),
        (f, n, pageSize, excludeAt) => {
          const filters = FILTERS[f]!();
          const exclude = excludeAt.map((i) => data.prospects[i]!.prospect_id as string);
          const expected = oracle(filters, n, exclude);

          const walked: string[] = [];
          let cursor: string | null = null;
          for (let guard = 0; guard < 10_000; guard++) {
            const body = ProspectsFetchRequestV2.parse({
              mode: 'preview',
              page_size: pageSize,
              filters,
              exclude,
              max_per_company: n,
              next_cursor: cursor,
            });
            const res = fetchProspects(engine, body, 2);
            expect(res.total_results).toBe(expected.length);
            walked.push(...res.data.map((r) => r.prospect_id as string));
            cursor = 'page' in res && typeof res.page === 'object' ? res.page.next_cursor : null;
            if (!cursor) break;
          }
          expect(walked).toEqual(expected);

          const offset: string[] = [];
          const pages = Math.ceil(expected.length / pageSize);
          for (let page = 1; page <= Math.max(pages, 1); page++) {
            const body = ProspectsFetchRequestV1.parse({
              mode: 'preview',
              page_size: pageSize,
              page,
              filters,
              exclude,
              max_per_company: n,
            });
            const res = fetchProspects(engine, body, 1);
            expect(res.total_results).toBe(expected.length);
            offset.push(...res.data.map((r) => r.prospect_id as string));
          }
          expect(offset).toEqual(expected);
        },
      ),
      { numRuns: 14, seed: 16 },
    );
  });

  it('keeps the most senior prospects of a crowded business', () => {
    const counts = new Map<string, number>();
    for (const p of data.prospects.filter((x) => x.business_id))
      counts.set(p.business_id, (counts.get(p.business_id) ?? 0) + 1);
    const [business] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    const filters = { business_id: { values: [business] } };
    const res = fetchProspects(
      engine,
      ProspectsFetchRequestV2.parse({ mode: 'full', page_size: 100, filters, max_per_company: 2 }),
      2,
    );
    expect(res.total_results).toBe(2);
    const all = data.prospects.filter((p) => p.business_id === business).map(seniority);
    const best = [...all].sort((a, b) => a - b).slice(0, 2);
    expect(res.data.map((r) => seniority(byId.get(r.prospect_id as string)!)).sort((a, b) => a - b)).toEqual(
      best,
    );
  });

  it('validates the bound, binds cursors to the cap and charges per returned record', async () => {
    const { api_key, account_id } = await engine.accounts.create({ name: 'cap' });
    await grantCredits(engine, account_id, 1_000);
    const post = (path: string, body: unknown) =>
      engine.handle({ method: 'POST', path, headers: { api_key }, body });
    for (const bad of [0, 101, 1.5, '3']) {
      const r = await post('/v2/prospects', { mode: 'preview', page_size: 10, max_per_company: bad });
      expect(r.status).toBe(422);
      const detail = (r.body as { detail: { loc: unknown[]; type: string }[] }).detail;
      expect(detail.some((d) => d.loc.join('.') === 'body.max_per_company')).toBe(true);
    }
    const r101 = await post('/v1/prospects', { mode: 'preview', page_size: 10, max_per_company: 101 });
    expect((r101.body as { detail: { type: string }[] }).detail[0]!.type).toBe('value_error.number.not_le');
    const biz = await post('/v2/businesses', { mode: 'preview', page_size: 10, max_per_company: 1 });
    expect(biz.status).toBe(422);

    const before = (await engine.handle({ method: 'GET', path: '/v1/credits', headers: { api_key } }))
      .body as {
      remaining_credits: number;
    };
    const first = await post('/v2/prospects', {
      mode: 'preview',
      page_size: 7,
      max_per_company: 1,
      filters: { country_code: { values: ['us'] } },
    });
    expect(first.status).toBe(200);
    const page = first.body as { data: unknown[]; total_results: number; page: { next_cursor: string } };
    expect(page.data).toHaveLength(7);
    expect(page.total_results).toBe(oracle({ country_code: { values: ['us'] } }, 1, []).length);
    const after = (await engine.handle({ method: 'GET', path: '/v1/credits', headers: { api_key } }))
      .body as {
      remaining_credits: number;
    };
    expect(before.remaining_credits - after.remaining_credits).toBe(7);

    const other = await post('/v2/prospects', {
      mode: 'preview',
      page_size: 7,
      max_per_company: 2,
      filters: { country_code: { values: ['us'] } },
      next_cursor: page.page.next_cursor,
    });
    expect(other.status).toBe(422);
    expect(JSON.stringify(other.body)).toContain('next_cursor');
  });
  it('capPerCompany on random sets of rows equals the rule applied to the whole set', () => {
    const size = prospectIndex(engine).size;
    const businessRows = new Map<string, number[]>();
    for (const r of rowids) {
      const b = byId.get(idOf.get(r)!)!.business_id as string | null;
      if (!b) continue;
      const list = businessRows.get(b);
      if (list) list.push(r);
      else businessRows.set(b, [r]);
    }
    const businesses = [...businessRows.values()];
    fc.assert(
      fc.property(
        fc.record({
          // Share of rows taken at random, share of businesses taken (all their rows, or all but a
          // random share of them): narrow, broad and company-following sets.
          density: fc.constantFrom(0, 0.002, 0.02, 0.1, 0.3, 0.6, 0.9, 1),
          companies: fc.constantFrom(0, 0.05, 0.3, 0.8),
          drop: fc.constantFrom(0, 0.2, 0.6),
          n: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 100 })),
          seed: fc.integer(),
        }),
        ({ density, companies, drop, n, seed }) => {
          let x = seed >>> 0 || 1;
          const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
          const chosen = new Set<number>();
          for (const r of rowids) if (next() < density) chosen.add(r);
          for (const rows of businesses) {
            if (next() >= companies) continue;
            for (const r of rows) if (next() >= drop) chosen.add(r);
          }
          const set = new Bitset(size);
          for (const r of chosen) set.add(r);
          capPerCompany(engine, set, n);
          const got = rowids.filter((r) => set.has(r)).map((r) => idOf.get(r)!);
          const expected = capIds(
            rowids.filter((r) => chosen.has(r)).map((r) => idOf.get(r)!),
            n,
          );
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 60, seed: 164 },
    );
  });

  it('random filter combinations: any offset page and the total equal the rule', () => {
    const pieces = FILTERS.slice(1).map((f) => f());
    fc.assert(
      fc.property(
        fc.subarray(pieces, { minLength: 0, maxLength: 3 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 40 }),
        (chosen, n, pageSize, page) => {
          const filters = Object.assign({}, ...chosen) as Json;
          const expected = oracle(filters, n, []);
          const body = ProspectsFetchRequestV1.parse({
            mode: 'preview',
            page_size: pageSize,
            page,
            filters,
            max_per_company: n,
          });
          const res = fetchProspects(engine, body, 1);
          expect(res.total_results).toBe(expected.length);
          expect(res.data.map((r) => r.prospect_id)).toEqual(
            expected.slice((page - 1) * pageSize, page * pageSize),
          );
        },
      ),
      { numRuns: 40, seed: 165 },
    );
  });
});
