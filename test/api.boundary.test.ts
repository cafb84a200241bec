/**
 * The package's functions are a boundary like the facade: the same input gets the same decision, and a
 * refusal is an `EngineError` whose `issues` are the 422 `detail` entries (`loc`, `msg`, `type`). Exact
 * cases (a misspelled filter, a wrong shape, an unknown autocomplete field, a misspelled engine option,
 * a snapshot folder that is missing or empty), then a property test that sends the fuzz suite's bodies
 * to the facade and to the functions and compares the decisions, the issues and the answers.
 * `API_FUZZ_RUNS` sets the number of bodies (default 600).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/account/accounts.js';
import type { ValidationIssue } from '../src/errors.js';
import { handle } from '../src/facade/handle.js';
import {
  autocomplete,
  businessStats,
  DEMO_SNAPSHOT,
  EngineError,
  fetchBusinesses,
  fetchProspects,
  matchBusinesses,
  matchBusinessStream,
  matchProspects,
  openEngine,
  prospectStats,
  type Engine,
} from '../src/index.js';
import { LIMITS } from '../src/schemas/bounds.js';
import { DEMO_DIR, demoEngine } from './support/demo.js';
import { fuzzBody } from './support/fuzz-corpus.js';
import { hostileString } from './support/hostile.js';

let engine: Engine;
let key: string;

beforeAll(async () => {
  engine = await demoEngine({ rateLimit: false });
  key = (await createAccount(engine, { name: 'Api', partner_id: 'api', credits: 1_000_000_000 })).api_key;
});
afterAll(() => engine.close());

/** What the facade answers: a 422's `detail`, or the body of a success without `response_context`. */
async function facade(method: string, path: string, body?: unknown, query?: Record<string, string>) {
  const res = await handle(engine, { method, path, query, headers: { api_key: key }, body });
  if (res.status === 422)
    return { ok: false as const, issues: (res.body as { detail: ValidationIssue[] }).detail };
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  if (Array.isArray(res.body)) return { ok: true as const, value: res.body as unknown };
  const { response_context: _, ...rest } = res.body as Record<string, unknown>;
  return { ok: true as const, value: rest as unknown };
}

/** What a library call does: its value, or the issues of the `EngineError` it throws (nothing else). */
async function library(call: () => unknown) {
  try {
    return { ok: true as const, value: JSON.parse(JSON.stringify(await call())) as unknown };
  } catch (e) {
    expect(e, String(e)).toBeInstanceOf(EngineError);
    const error = e as EngineError;
    expect(error.code).toBe('VALIDATION');
    expect(error.status).toBe(422);
    return { ok: false as const, issues: error.issues };
  }
}

const thrown = (call: () => unknown): EngineError => {
  try {
    call();
  } catch (e) {
    expect(e).toBeInstanceOf(EngineError);
    return e as EngineError;
  }
  throw new Error('expected an EngineError');
};

describe('the functions refuse what the facade refuses, with the same issues', () => {
  it('names a misspelled filter instead of answering every prospect', async () => {
    const request = { mode: 'preview', page_size: 5, filters: { contry_code: { values: ['us'] } } };
    const issues = [
      {
        loc: ['body', 'filters', 'contry_code'],
        msg: 'extra fields not permitted',
        type: 'value_error.extra',
      },
    ];
    const e = thrown(() => fetchProspects(engine, request as never));
    expect(e.issues).toEqual(issues);
    expect(e.message).toBe('body.filters.contry_code: extra fields not permitted');
    expect(await facade('POST', '/v1/prospects', request)).toEqual({ ok: false, issues });
    expect(thrown(() => prospectStats(engine, { filters: request.filters } as never)).issues).toEqual(issues);
  });

  it('refuses a filter of the wrong shape with a 422 entry, not a TypeError', async () => {
    const request = { mode: 'preview', page_size: 5, filters: { country_code: 'us' } };
    const issues = [
      { loc: ['body', 'filters', 'country_code'], msg: 'value is not a valid dict', type: 'type_error.dict' },
    ];
    expect(thrown(() => fetchProspects(engine, request as never)).issues).toEqual(issues);
    expect(await facade('POST', '/v1/prospects', request)).toEqual({ ok: false, issues });
    expect(thrown(() => fetchBusinesses(engine, request as never, { version: 2 })).issues).toEqual(issues);
  });

  it('refuses an unknown autocomplete field, and a misspelled member the query string would ignore', async () => {
    const e = thrown(() => autocomplete(engine, { field: 'nope' }));
    expect(e.issues.map((i) => [i.loc, i.type])).toEqual([[['query', 'field'], 'type_error.enumeration']]);
    expect(await facade('GET', '/v1/prospects/autocomplete', undefined, { field: 'nope' })).toEqual({
      ok: false,
      issues: e.issues,
    });
    expect(thrown(() => autocomplete(engine, { field: 'country', qurey: 'uni' } as never)).issues).toEqual([
      { loc: ['query', 'qurey'], msg: 'extra fields not permitted', type: 'value_error.extra' },
    ]);
  });

  it('refuses a stats request without `filters`, as the route does (null means no filter)', async () => {
    const issues = [{ loc: ['body', 'filters'], msg: 'field required', type: 'value_error.missing' }];
    expect(thrown(() => businessStats(engine, {} as never)).issues).toEqual(issues);
    expect(await facade('POST', '/v1/businesses/stats', {})).toEqual({ ok: false, issues });
    expect(businessStats(engine, { filters: null }).total_results).toBe(2000);
  });

  it('reads the API version from an options object, and still from the old bare number', () => {
    const v2 = fetchProspects(engine, { mode: 'preview', page_size: 3 }, { version: 2 });
    expect(v2.page.size).toBe(3);
    expect(v2.total_results).toBe(10_000);
    const v1 = fetchProspects(engine, { mode: 'preview', page_size: 3 });
    expect(v1).toMatchObject({ page: 1, total_pages: 3334, total_results: 10_000 });
    expect(v1.data.length).toBe(3);
    expect(fetchProspects(engine, { mode: 'preview', page_size: 3 }, 1 as never)).toEqual(v1);
    expect(
      thrown(() =>
        fetchProspects(engine, { mode: 'preview', page_size: 3 } as never, { version: 3 as never }),
      ).issues,
    ).toEqual([
      {
        loc: ['options', 'version'],
        msg: 'value is not a valid enumeration member; permitted: 1, 2',
        type: 'type_error.enumeration',
        ctx: { enum_values: [1, 2] },
      },
    ]);
    expect(
      thrown(() =>
        fetchProspects(engine, { mode: 'preview', page_size: 3, page: 2 }, { version: 2 } as never),
      ).issues,
    ).toEqual([{ loc: ['body', 'page'], msg: 'extra fields not permitted', type: 'value_error.extra' }]);
  });

  it('names a refused match row by its place, in a batch and in a stream', async () => {
    const issues = [
      {
        loc: ['body', 'businesses_to_match', 1, 'nme'],
        msg: 'extra fields not permitted',
        type: 'value_error.extra',
      },
    ];
    const rows = [{ name: 'Acme' }, { nme: 'Acme' }];
    expect(thrown(() => matchBusinesses(engine, rows as never)).issues).toEqual(issues);
    expect(await facade('POST', '/v1/businesses/match', { businesses_to_match: rows })).toEqual({
      ok: false,
      issues,
    });
    const answered: unknown[] = [];
    const stream = async () => {
      for await (const r of matchBusinessStream(engine, rows as never)) answered.push(r.business_id);
    };
    await expect(stream()).rejects.toMatchObject({ code: 'VALIDATION', issues });
    expect(answered).toEqual([]);
    expect(thrown(() => matchProspects(engine, [{ email: 'a@b.c' }], { minConfidence: 2 })).issues).toEqual([
      {
        loc: ['options', 'minConfidence'],
        msg: 'ensure this value is less than or equal to 1',
        type: 'value_error.number.not_le',
        ctx: { limit_value: 1 },
      },
    ]);
  });

  it('refuses a first argument that is not an engine', () => {
    expect(
      thrown(() => fetchProspects(undefined as never, { mode: 'preview', page_size: 1 })).issues,
    ).toEqual([{ loc: ['engine'], msg: 'expected an engine (from openEngine)', type: 'type_error.engine' }]);
  });
});

describe('openEngine and snapshots', () => {
  it('refuses unknown options, naming the closest known one', () => {
    const e = thrown(() => openEngine({ pth: 'x.db', readOnly: true } as never));
    expect(e.message).toBe('Misspelled option "pth" should be "path"');
    expect(e.issues).toEqual([
      {
        loc: ['options', 'pth'],
        msg: 'Misspelled option "pth" should be "path"',
        type: 'value_error.extra',
        ctx: { did_you_mean: 'path' },
      },
      {
        loc: ['options', 'readOnly'],
        msg: 'Misspelled option "readOnly" should be "readonly"',
        type: 'value_error.extra',
        ctx: { did_you_mean: 'readonly' },
      },
    ]);
    expect(thrown(() => openEngine({ zzzzzz: 1 } as never)).message).toMatch(
      /^Unknown option "zzzzzz" \(options: path, snapshot, state, clock, readonly,/,
    );
    expect(thrown(() => openEngine('x.db' as never)).message).toBe(
      'Expected the "options" argument to be an object',
    );
  });

  it('says whether a snapshot folder is missing or holds no stream', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prospectdb-empty-'));
    const e = openEngine();
    try {
      await expect(e.load(join(dir, 'nope'))).rejects.toMatchObject({
        code: 'SNAPSHOT_NOT_FOUND',
        message: `${join(dir, 'nope')}: the folder does not exist`,
      });
      await expect(e.load(dir)).rejects.toMatchObject({
        code: 'SNAPSHOT_NOT_FOUND',
        message: `${dir}: the folder has no businesses, prospects or events stream (businesses|prospects|events as .jsonl, .jsonl.gz, .msgpack)`,
      });
    } finally {
      e.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the underlying error as `cause`', async () => {
    const error = await engine.swapSnapshot('/no/such/snapshot.db').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('SNAPSHOT_NOT_FOUND');
    expect(((error as EngineError).cause as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('exports the packaged demo snapshot as an absolute path', () => {
    expect(DEMO_SNAPSHOT).toBe(DEMO_DIR);
  });
});

// ---------------------------------------------------------------------------------------------------
// The same bodies through both doors.

const RUNS = Number(process.env.API_FUZZ_RUNS ?? 600);

/** Body routes and the library call answering each (the value the facade's body decoder produced). */
const CALLS: [path: string, call: (body: unknown) => unknown][] = [
  ['/v1/prospects', (b) => fetchProspects(engine, b as never)],
  ['/v2/prospects', (b) => fetchProspects(engine, b as never, { version: 2 })],
  ['/v1/businesses', (b) => fetchBusinesses(engine, b as never, { version: 1 })],
  ['/v2/businesses', (b) => fetchBusinesses(engine, b as never, { version: 2 })],
  ['/v1/prospects/stats', (b) => prospectStats(engine, b as never)],
  ['/v2/prospects/stats', (b) => prospectStats(engine, b as never, { version: 2 })],
  ['/v1/businesses/stats', (b) => businessStats(engine, b as never)],
  ['/v2/businesses/stats', (b) => businessStats(engine, b as never, { version: 2 })],
];

/** Requests the search routes accept (filters both entities have), so that answers get compared too. */
const validFilters = fc.record(
  {
    country_code: fc.record({ values: fc.subarray(['us', 'GB', 'de']), negate: fc.boolean() }),
    company_size: fc.record({ values: fc.subarray(['11-50', '51-200']) }),
    company_revenue: fc.record({ values: fc.subarray(['10m-25m', '1m-5m']) }),
  },
  { requiredKeys: [] },
);
const validSearch = fc.oneof(
  fc.record({
    mode: fc.constantFrom('preview', 'full', 'FULL'),
    page_size: fc.integer({ min: 1, max: 5 }),
    next_cursor: fc.constant(null),
    filters: validFilters,
  }),
  fc.record({ filters: fc.option(validFilters, { nil: null }) }),
);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The value a library caller would pass for a fuzzed body: the body itself, or the JSON a text or
 * bytes body holds; undefined for a text that is not JSON (a library call takes values, not texts).
 */
function asValue(body: unknown): { value: unknown } | undefined {
  let text: string | undefined;
  if (body instanceof Uint8Array) {
    try {
      text = utf8.decode(body);
    } catch {
      return undefined;
    }
  } else if (typeof body === 'string') text = body;
  if (text === undefined) return { value: body };
  if (text.trim() === '') return { value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  // The facade reads the text `null` as a value that is not allowed, a `null` body as a missing one;
  // a library caller's `null` is the latter.
  return value === null ? undefined : { value };
}

const locs = (issues: ValidationIssue[]) => issues.map((i) => JSON.stringify(i.loc));

describe('the fuzz corpus through the facade and through the functions', () => {
  it(`takes the same decisions with the same issues and answers (${RUNS} bodies)`, async () => {
    const decided = { accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CALLS),
        fc.oneof(
          { weight: 3, arbitrary: fuzzBody({ businessId: '' }) },
          { weight: 1, arbitrary: validSearch },
        ),
        async ([path, call], body) => {
          const input = asValue(body);
          fc.pre(input !== undefined);
          const viaFacade = await facade('POST', path, body);
          const viaLibrary = await library(() => call(input!.value));
          expect(viaLibrary.ok, path).toBe(viaFacade.ok);
          if (viaFacade.ok) {
            decided.accepted++;
            expect(viaLibrary).toEqual(viaFacade);
          } else {
            decided.refused++;
            expect(locs(viaLibrary.ok ? [] : viaLibrary.issues), path).toEqual(locs(viaFacade.issues));
            expect(viaLibrary).toEqual(viaFacade);
          }
        },
      ),
      { numRuns: RUNS, seed: 11 },
    );
    // Both outcomes occur often enough for the comparison to mean something.
    expect(decided.accepted).toBeGreaterThan(RUNS / 20);
    expect(decided.refused).toBeGreaterThan(RUNS / 5);
  }, 300_000);

  it(`matches rows the same way: the same row issues, the same answers (${RUNS} bodies)`, async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('businesses', 'prospects'),
        fuzzBody({ businessId: '' }),
        async (entity, body) => {
          const input = asValue(body)?.value as Record<string, unknown> | undefined;
          const member = `${entity}_to_match`;
          const rows = input?.[member];
          fc.pre(Array.isArray(rows) && rows.length >= 1 && rows.length <= 50);
          const viaFacade = await facade('POST', `/v1/${entity}/match`, input);
          // Whole-body bounds and the other members of a request body are not a row's business.
          const whole = (i: ValidationIssue) =>
            i.loc.length <= 1 ||
            i.type === 'value_error.jsondecode' ||
            i.ctx?.limit_value === LIMITS.anyString ||
            i.ctx?.limit_value === LIMITS.anyList;
          fc.pre(viaFacade.ok || (!viaFacade.issues.some(whole) && viaFacade.issues.length < 50));
          const rowIssues = viaFacade.ok
            ? []
            : viaFacade.issues.filter((i) => i.loc[1] === member && typeof i.loc[2] === 'number');
          const m = input?.min_confidence;
          const options = typeof m === 'number' && m >= 0 && m <= 1 ? { minConfidence: m } : {};
          const run = entity === 'businesses' ? matchBusinesses : matchProspects;
          const viaLibrary = await library(() => run(engine, rows as never, options));
          compared++;
          if (rowIssues.length > 0) expect(viaLibrary).toEqual({ ok: false, issues: rowIssues });
          else expect(viaLibrary.ok).toBe(true);
          if (viaFacade.ok) expect(viaLibrary).toEqual(viaFacade);
        },
      ),
      { numRuns: RUNS, seed: 12 },
    );
    expect(compared).toBeGreaterThan(RUNS / 10);
  }, 300_000);

  it('autocompletes the same way: the facade ignores stray query parameters, the function names them', async () => {
    const query = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('country', 'job_title', 'company_name', 'skills', 'COUNTRY', 'nope', ''),
          hostileString,
          fc.constantFrom('false', 'true', 'TRUE', 'maybe'),
        )
        .map(([field, q, semantic]) => ({ field, query: q, semantic_search: semantic })),
      fc
        .constantFrom(
          'field=country&query=uni',
          'field=nope',
          'semantic_search=maybe&field=job_title',
          'status=queued',
        )
        .map((q) => Object.fromEntries(new URLSearchParams(q))),
    );
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const viaFacade = await facade('GET', '/v2/autocomplete', undefined, q);
        const viaLibrary = await library(() => autocomplete(engine, q as never));
        const known = new Set(['field', 'query', 'semantic_search']);
        const stray = Object.keys(q)
          .filter((k) => !known.has(k))
          .map((k) => ({ loc: ['query', k], msg: 'extra fields not permitted', type: 'value_error.extra' }));
        if (viaFacade.ok && stray.length === 0) expect(viaLibrary).toEqual(viaFacade);
        else
          expect(viaLibrary).toEqual({
            ok: false,
            issues: [...(viaFacade.ok ? [] : viaFacade.issues), ...stray],
          });
      }),
      { numRuns: Math.max(50, RUNS / 4), seed: 13 },
    );
  }, 300_000);
});
