/** Lent scratch bitsets (the engine's pool): reuse across requests never leaks one request's rows into another. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchProspects } from '../src/core/fetch.js';
import { prospectStats } from '../src/core/stats.js';
import type { Engine } from '../src/engine.js';
import { Bitset, cardinality } from '../src/indexes/bitset.js';
import { borrow, borrowCopy, release } from '../src/indexes/scratch.js';
import type { ProspectFilters } from '../src/schemas/filters.js';
import { demoEngine } from './support/demo.js';

describe('scratch bitsets', () => {
  it('lend cleared bitsets and exact copies, whatever was given back before', () => {
    const a = borrow(engine, 1000);
    for (let i = 0; i < 1000; i += 3) a.add(i);
    release(engine, a);
    const b = borrow(engine, 1000);
    expect(cardinality(b)).toBe(0);
    const source = new Bitset(1000);
    source.add(7);
    source.add(999);
    release(engine, b);
    const c = borrowCopy(engine, source);
    expect(c.words).toEqual(source.words);
    expect(c.words).not.toBe(source.words);
  });

  it('never take back a bitset they did not lend', () => {
    const own = new Bitset(64);
    own.add(5);
    release(engine, own);
    const lent = borrow(engine, 64);
    expect(lent.words).not.toBe(own.words);
    expect(own.has(5)).toBe(true);
  });
});

let engine: Engine;
beforeAll(async () => {
  engine = await demoEngine();
});
afterAll(() => engine.close());

const FILTERS: (ProspectFilters | null)[] = [
  null,
  { country_code: { values: ['us'] } },
  { country_code: { values: ['us'], negate: true } },
  { job_level: { values: ['manager'] }, total_experience_months: { gte: 60 } },
  { current_role_months: { lte: 12 }, has_email: { value: true } },
  {
    company_size: { values: ['11-50', '51-200'] },
    job_department: { values: ['engineering'], negate: true },
  },
  { company_country_code: { values: ['gb'], negate: true } },
];

describe('requests that reuse scratch space', () => {
  it('answer as if each ran alone', () => {
    const page = (filters: ProspectFilters | null) =>
      fetchProspects(engine, { mode: 'preview', page_size: 25, page: 1, filters }, 1);
    const alone = FILTERS.map((f) => ({ page: page(f), stats: prospectStats(engine, { filters: f }) }));
    fc.assert(
      fc.property(fc.array(fc.nat(FILTERS.length - 1), { minLength: 1, maxLength: 12 }), (order) => {
        for (const i of order) {
          expect(page(FILTERS[i]!)).toEqual(alone[i]!.page);
          expect(prospectStats(engine, { filters: FILTERS[i]! })).toEqual(alone[i]!.stats);
        }
      }),
      { numRuns: 40 },
    );
  });
});
