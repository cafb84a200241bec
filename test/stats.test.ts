import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessStats, prospectStats } from '../src/core/stats.js';
import { openEngine, type Engine } from '../src/engine.js';
import { countryCodeOf, countryId, regionLabel } from '../src/indexes/labels.js';
import { COUNTRY_CODES } from '../src/schemas/enums.js';
import { foldText } from '../src/normalise/index.js';
import { BusinessesStatsRequest, ProspectsStatsRequestV1 } from '../src/schemas/search.js';
import {
  NOW,
  oracleBusinesses,
  oracleProspects,
  synthetic,
  type Json,
  type Synthetic,
} from './search.oracle.js';

let engine: Engine;
let data: Synthetic;
beforeAll(async () => {
  data = synthetic(21, 120, 700);
  engine = openEngine({ clock: () => NOW });
  await engine.load(data.dir, { strict: true });
});
afterAll(() => engine.close());

const inc = (o: Record<string, number>, k: string, n = 1) => (o[k] = (o[k] ?? 0) + n);
const location = (r: Json, regional: boolean) => {
  const region = r.region_country_code?.toLowerCase();
  const country = r.country_code?.toLowerCase();
  if (regional && region) return regionLabel(region);
  return country ? country.toUpperCase() : 'Unknown';
};
/** Expected nested counts, keys in any order (compared with toEqual). */
function nest(rows: [outer: string | null, loc: string][], total: number) {
  const out: Record<string, Record<string, number>> = {};
  const perLoc: Record<string, number> = {};
  for (const [outer, loc] of rows) {
    if (outer !== null) {
      out[outer] ??= {};
      inc(out[outer]!, loc);
      inc(out[outer]!, 'total');
    }
  }
  return { out, perLoc, total };
}

describe('prospect stats', () => {
  /** Exact expected counts from a scan of the raw records. */
  function expectExact(filters: Record<string, unknown>, regional: boolean) {
    const res = prospectStats(engine, ProspectsStatsRequestV1.parse({ filters }));
    const matched = new Set(oracleProspects(data, filters));
    const rows = data.prospects.filter((p) => matched.has(p.prospect_id));
    const perLocation: Record<string, number> = {};
    for (const p of rows) inc(perLocation, location(p, regional));
    const { out } = nest(
      rows.map((p) => [p.job_department_main, location(p, regional)]),
      rows.length,
    );
    expect(res.total_results).toBe(rows.length);
    expect(res.stats.total_per_location).toEqual({ ...perLocation, total: rows.length });
    expect(res.stats.job_departments_per_location).toEqual({
      ...out,
      total_per_location: { ...perLocation, total: rows.length },
    });
    return rows.length;
  }

  it('counts main departments per region under a location filter, exactly', () => {
    expectExact(
      { country_code: { values: ['US', 'gb'] }, job_level: { values: ['manager', 'director', 'owner'] } },
      true,
    );
  });

  it('counts sets holding most rows exactly (through their complement)', () => {
    const n = expectExact({ country_code: { values: ['gb'], negate: true } }, true);
    expect(n * 2).toBeGreaterThan(data.prospects.length);
    expectExact({ job_level: { values: ['owner'], negate: true } }, false);
  });

  it('uses countries without a location filter and never caps total_results', () => {
    const res = prospectStats(engine, ProspectsStatsRequestV1.parse({ filters: null }));
    expect(res.total_results).toBe(data.prospects.length);
    expect(Object.keys(res.stats.total_per_location).sort()).toEqual(
      [...new Set(data.prospects.map((p) => location(p, false))), 'total'].sort(),
    );
  });
});

describe('business stats', () => {
  it('counts categories per location, revenue and employees per category, exactly', () => {
    const filters = { company_size: { values: ['1-10', '11-50', '51-200'] } };
    const res = businessStats(engine, BusinessesStatsRequest.parse({ filters }));
    const matched = new Set(oracleBusinesses(data, filters, 1));
    const rows = data.businesses.filter((b) => matched.has(b.business_id));
    const labelOf = new Map<string, string>();
    for (const b of data.businesses)
      for (const c of b.google_category) if (!labelOf.has(foldText(c))) labelOf.set(foldText(c), c);
    const cats = (b: Json) => [
      ...new Set((b.google_category as string[]).map((c) => labelOf.get(foldText(c))!)),
    ];
    const perLoc: Record<string, number> = {};
    const perCat: Record<string, Record<string, number>> = {};
    const revenue: Record<string, Record<string, number>> = {};
    const employees: Record<string, Record<string, number>> = {};
    for (const b of rows) {
      const loc = location(b, false);
      inc(perLoc, loc);
      for (const c of cats(b)) {
        inc((perCat[c] ??= {}), loc);
        inc(perCat[c]!, 'total');
        if (b.yearly_revenue_range) inc((revenue[c] ??= {}), b.yearly_revenue_range);
        inc((revenue[c] ??= {}), 'total');
        if (b.number_of_employees_range) inc((employees[c] ??= {}), b.number_of_employees_range);
        inc((employees[c] ??= {}), 'total');
      }
    }
    expect(res.total_results).toBe(rows.length);
    expect(res.stats.business_categories_per_location).toEqual({
      ...perCat,
      total_per_location: { ...perLoc, total: rows.length },
    });
    expect(res.stats.revenue_per_category).toEqual(revenue);
    expect(res.stats.number_of_employees_per_category).toEqual(employees);
  });

  it('breaks down by the category filter used (naics codes, linkedin categories)', () => {
    const naics = businessStats(
      engine,
      BusinessesStatsRequest.parse({ filters: { naics_category: { values: ['54'] } } }),
    );
    expect(Object.keys(naics.stats.revenue_per_category).every((k) => k.startsWith('54'))).toBe(true);
    const li = businessStats(
      engine,
      BusinessesStatsRequest.parse({ filters: { linkedin_category: { values: ['retail'] } } }),
    );
    expect(li.stats.revenue_per_category).toHaveProperty('Retail');
    expect(li.total_results).toBe(
      oracleBusinesses(data, { linkedin_category: { values: ['retail'] } }, 1).length,
    );
  });

  it('uses regions when the request filters on a location', () => {
    const res = businessStats(
      engine,
      BusinessesStatsRequest.parse({
        filters: {
          region_country_code: { values: ['us-ca'] },
          include_operating_locations: { value: false },
        },
      }),
    );
    expect(res.stats.business_categories_per_location.total_per_location).toMatchObject({
      'California, US': res.total_results,
    });
  });

  it('requires filters (null allowed)', () => {
    expect(BusinessesStatsRequest.safeParse({}).success).toBe(false);
    expect(BusinessesStatsRequest.safeParse({ filters: null, request_context: {} }).success).toBe(true);
  });
});

describe('location codes', () => {
  it('tell every listed country apart in the byte a stats column keeps per row', () => {
    const column = Uint8Array.from(COUNTRY_CODES, (c) => countryId(c));
    expect(COUNTRY_CODES.length).toBeLessThan(256);
    expect([...column].map((id) => countryCodeOf(id))).toEqual([...COUNTRY_CODES]);
    expect(new Set(column).size).toBe(COUNTRY_CODES.length);
    expect(countryId('not a country')).toBe(0);
  });
});
