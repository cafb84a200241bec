import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDetail } from '../src/facade/validation.js';
import { fetchBusinesses, fetchProspects, type CursorPage, type OffsetPage } from '../src/core/fetch.js';
import { openEngine, type Engine } from '../src/engine.js';
import { EngineError } from '../src/errors.js';
import {
  BusinessesFetchRequestV1,
  BusinessesFetchRequestV2,
  ProspectsFetchRequestV1,
  ProspectsFetchRequestV2,
} from '../src/schemas/search.js';
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
  data = synthetic(11);
  engine = openEngine({ clock: () => NOW });
  await engine.load(data.dir, { strict: true });
});
afterAll(() => engine.close());

type Rec = Record<string, unknown>;
interface Issue {
  path: PropertyKey[];
  code: string;
  message: string;
}
const prospects = (body: Json, version: 1 | 2 = 1) =>
  fetchProspects(
    engine,
    (version === 1 ? ProspectsFetchRequestV1 : ProspectsFetchRequestV2).parse(body),
    version,
  );
const businesses = (body: Json, version: 1 | 2 = 1) =>
  fetchBusinesses(
    engine,
    (version === 1 ? BusinessesFetchRequestV1 : BusinessesFetchRequestV2).parse(body),
    version,
  );
const ids = (page: { data: Rec[] }, key = 'prospect_id') => page.data.map((r) => r[key] as string);

function cursorWalk(body: Json, version: 1 | 2 = 1, entity: 'p' | 'b' = 'p') {
  const out: string[] = [];
  let cursor: string | null = null;
  const totals = new Set<number>();
  for (let i = 0; i < 10_000; i++) {
    const page = (entity === 'p' ? prospects : businesses)(
      { ...body, next_cursor: cursor },
      version,
    ) as CursorPage<Rec>;
    out.push(...ids(page, entity === 'p' ? 'prospect_id' : 'business_id'));
    totals.add(page.total_results);
    expect(page.page.size).toBe(page.data.length);
    cursor = page.page.next_cursor;
    if (cursor === null) break;
  }
  return { ids: out, totals: [...totals] };
}

function offsetWalk(body: Json) {
  const out: string[] = [];
  const first = prospects({ ...body, page: 1 }) as OffsetPage<Rec>;
  for (let p = 1; p <= first.total_pages; p++)
    out.push(...ids(prospects({ ...body, page: p }) as OffsetPage<Rec>));
  return { ids: out, first };
}

describe('offset fetch', () => {
  it('pages through the matching prospects in snapshot order with total_results and total_pages', () => {
    const filters = { country_code: { values: ['US'] } };
    const expected = oracleProspects(data, filters);
    const page = prospects({ mode: 'full', page_size: 7, page: 2, filters }) as OffsetPage<Rec>;
    expect(page).toMatchObject({
      total_results: expected.length,
      page: 2,
      total_pages: Math.ceil(expected.length / 7),
    });
    expect(ids(page)).toEqual(expected.slice(7, 14));
  });

  it('caps total_results by size and serves no record past it', () => {
    const page = prospects({ mode: 'preview', size: 10, page_size: 4, page: 3 }) as OffsetPage<Rec>;
    expect(page).toMatchObject({ total_results: 10, total_pages: 3, page: 3 });
    expect(ids(page)).toEqual(data.prospects.slice(8, 10).map((p) => p.prospect_id));
    expect((prospects({ mode: 'preview', size: 10, page_size: 4, page: 4 }) as OffsetPage<Rec>).data).toEqual(
      [],
    );
  });

  it('removes excluded ids before counting', () => {
    const all = oracleProspects(data, {});
    const exclude = [all[0]!, all[3]!.toUpperCase()];
    const page = prospects({ mode: 'preview', page_size: 5, exclude }) as OffsetPage<Rec>;
    expect(page.total_results).toBe(all.length - 2);
    expect(ids(page)).toEqual(oracleProspects(data, {}, [all[0]!, all[3]!]).slice(0, 5));
  });

  it('returns the same page for the same request', () => {
    const body = { mode: 'full', page_size: 20, page: 3, filters: { skills: { values: ['python'] } } };
    expect(prospects(body)).toEqual(prospects(body));
  });
});

describe('cursor fetch', () => {
  it('walks every match once with the true total, and ends with a null cursor', () => {
    const filters = { job_level: { values: ['director', 'manager'] } };
    const walk = cursorWalk({ mode: 'preview', page_size: 13, filters });
    const expected = oracleProspects(data, filters);
    expect(walk.ids).toEqual(expected);
    expect(walk.totals).toEqual([expected.length]);
  });

  it('is the only mode of v2, for businesses too', () => {
    const filters = { company_size: { values: ['1-10', '11-50'] } };
    const walk = cursorWalk({ mode: 'full', page_size: 9, filters }, 2, 'b');
    expect(walk.ids).toEqual(oracleBusinesses(data, filters, 2));
    const page = businesses({ mode: 'full', page_size: 5 }, 2) as CursorPage<Rec>;
    expect(page.page.size).toBe(5);
    expect(page.total_results).toBe(data.businesses.length);
  });

  it('property: a cursor walk returns exactly the offset walk ids, each once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 100 }),
        fc.subarray(['us', 'gb', 'de', 'fr', 'il'], { minLength: 1 }),
        fc.boolean(),
        (pageSize, countries, negate) => {
          const filters = { country_code: { values: countries, negate } };
          const cursor = cursorWalk({ mode: 'preview', page_size: pageSize, filters });
          const offset = offsetWalk({ mode: 'preview', page_size: pageSize, filters });
          expect(cursor.ids).toEqual(offset.ids);
          expect(new Set(cursor.ids).size).toBe(cursor.ids.length);
          expect(cursor.totals).toEqual([offset.first.total_results]);
        },
      ),
      { numRuns: 25, seed: 5 },
    );
  });

  it('starts a walk on null, "" and "null"', () => {
    const a = prospects({ mode: 'preview', page_size: 3, next_cursor: null });
    expect(prospects({ mode: 'preview', page_size: 3, next_cursor: 'null' })).toEqual(a);
    expect(prospects({ mode: 'preview', page_size: 3, next_cursor: '' })).toEqual(a);
  });
});

describe('records', () => {
  it('prospect full records carry exactly the live fields', () => {
    const [rec] = (prospects({ mode: 'full', page_size: 1 }) as OffsetPage<Rec>).data;
    expect(Object.keys(rec!).sort()).toEqual(
      [
        'prospect_id',
        'professional_email_hashed',
        'first_name',
        'last_name',
        'full_name',
        'country_name',
        'region_name',
        'city',
        'linkedin',
        'linkedin_url_array',
        'experience',
        'skills',
        'interests',
        'company_name',
        'company_website',
        'company_linkedin',
        'job_department',
        'job_department_array',
        'job_department_main',
        'job_seniority_level',
        'job_level_array',
        'job_level_main',
        'job_title',
        'business_id',
      ].sort(),
    );
    expect(rec!.experience).toEqual(['Engineer at Globex']);
  });

  it('prospect preview drops the social links, experience, skills and interests', () => {
    const [rec] = (prospects({ mode: 'preview', page_size: 1 }) as OffsetPage<Rec>).data;
    for (const k of [
      'linkedin',
      'linkedin_url_array',
      'company_linkedin',
      'experience',
      'skills',
      'interests',
    ]) {
      expect(rec).not.toHaveProperty(k);
    }
    expect(rec).toHaveProperty('job_title');
  });

  it('hashes the first professional e-mail, lower-cased', async () => {
    const { createHash } = await import('node:crypto');
    const p = data.prospects.find((x) => x.emails[0]?.type === 'professional')!;
    const page = prospects({
      mode: 'full',
      page_size: 1,
      filters: { prospect_id: { values: [p.prospect_id] } },
    });
    expect(page.data[0]!.professional_email_hashed).toBe(
      createHash('sha256').update(p.emails[0].address.toLowerCase()).digest('hex'),
    );
  });

  it('business records carry the §4.4 fields and recent event names', () => {
    const withEvent = data.events.find((e) => Date.parse(e.event_time) > NOW - 30 * 86_400_000)!;
    const page = businesses({
      mode: 'full',
      page_size: 1,
      filters: { business_id: { values: [withEvent.business_id] } },
    });
    const rec = page.data[0]!;
    expect(Object.keys(rec).sort()).toEqual(
      [
        'business_id',
        'name',
        'domain',
        'logo',
        'website',
        'country_name',
        'region',
        'city_name',
        'number_of_employees_range',
        'yearly_revenue_range',
        'naics',
        'naics_description',
        'business_description',
        'sic_code',
        'sic_code_description',
        'business_intent_topics',
        'events',
        'linkedin_profile',
        'google_category',
        'linkedin_category',
        'other_names',
      ].sort(),
    );
    expect((rec as Rec).events).toContain(withEvent.event_name);
  });
});

describe('request validation', () => {
  const issues = (schema: { safeParse(v: unknown): { error?: { issues: Issue[] } } }, v: unknown) =>
    (schema.safeParse(v).error?.issues ?? []).map((i) => ({
      path: i.path,
      code: i.code,
      message: i.message,
    }));

  it('applies every limit with the path of the faulty input', () => {
    const S = ProspectsFetchRequestV1;
    expect(issues(S, { mode: 'full', page_size: 501 })[0]).toMatchObject({
      path: ['page_size'],
      code: 'too_big',
    });
    expect(issues(S, { mode: 'full', page_size: 0 })[0]).toMatchObject({
      path: ['page_size'],
      code: 'too_small',
    });
    expect(issues(S, { mode: 'full', page_size: 10, size: 60_001 })[0]).toMatchObject({ path: ['size'] });
    expect(issues(S, { mode: 'full', page_size: 10, page: 0 })[0]).toMatchObject({ path: ['page'] });
    expect(
      issues(S, { mode: 'full', page_size: 10, exclude: Array(1001).fill('a'.repeat(40)) })[0],
    ).toMatchObject({
      path: ['exclude'],
      code: 'too_big',
    });
    expect(issues(S, { mode: 'full', page_size: 10, exclude: ['abc'] })[0]).toMatchObject({
      path: ['exclude', 0],
    });
    expect(issues(S, { page_size: 10 })[0]).toMatchObject({ path: ['mode'] });
    expect(issues(S, { mode: 'full' })[0]).toMatchObject({ path: ['page_size'] });
    // Modes are read in any case ("FULL"); an unknown one is an enumeration error listing both.
    expect(S.parse({ mode: 'FULL', page_size: 1 }).mode).toBe('full');
    const mode = S.safeParse({ mode: 'everything', page_size: 1 }, { reportInput: true });
    expect(toDetail(mode.error!.issues, 'body', S)).toEqual([
      {
        loc: ['body', 'mode'],
        msg: "value is not a valid enumeration member; permitted: 'full', 'preview'",
        type: 'type_error.enumeration',
        ctx: { enum_values: ['full', 'preview'] },
      },
    ]);
    expect(issues(S, { mode: 'full', page_size: 10, bogus: 1 })[0]).toMatchObject({
      code: 'unrecognized_keys',
    });
  });

  it('requires size ≥ page_size as a root rule', () => {
    expect(issues(ProspectsFetchRequestV1, { mode: 'full', page_size: 50, size: 10 })).toEqual([
      { path: [], code: 'custom', message: "'size' must be greater than or equal to 'page_size'" },
    ]);
  });

  it('limits cursor pages to 100 and v2 has no size or page', () => {
    expect(
      issues(ProspectsFetchRequestV1, { mode: 'full', page_size: 101, next_cursor: null })[0],
    ).toMatchObject({
      path: ['page_size'],
    });
    expect(issues(ProspectsFetchRequestV1, { mode: 'full', page_size: 101 })).toEqual([]);
    expect(issues(BusinessesFetchRequestV2, { mode: 'full', page_size: 101 })[0]).toMatchObject({
      path: ['page_size'],
    });
    expect(issues(BusinessesFetchRequestV2, { mode: 'full', page_size: 10, size: 10 })[0]).toMatchObject({
      code: 'unrecognized_keys',
    });
  });

  it('reports a bad cursor as a validation error on next_cursor', () => {
    try {
      prospects({ mode: 'full', page_size: 5, next_cursor: 'garbage!' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(EngineError);
      expect((e as EngineError).issues[0]).toMatchObject({
        loc: ['next_cursor'],
        type: 'value_error.cursor',
      });
    }
  });
});
