/**
 * The fuzz suite's request bodies (test/fuzz.test.ts sends them to every route; test/api.boundary.test.ts
 * sends the same to the facade and to the package's functions and compares the decisions).
 */
import fc from 'fast-check';
import { hostileString } from './hostile.js';

/** Valid-ish seeds per route family; mutations start from these. */
function seeds(businessId: string, prospectId: string | undefined): Record<string, unknown>[] {
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
    { prospects_to_match: [{ full_name: 'Jane Doe', company_name: 'Acme', email: 'j@acme.com' }] },
    { mode: 'preview', page_size: 2, exclude: [businessId], next_cursor: 'AAAA' },
    { filters: { has_email: { value: 'true' }, company_revenue: { values: ['10m-25m'] } } },
    { from_date: '2026-10-01', to_date: '2026-10-02', resolution: 'day' },
    {
      mode: 'full',
      page_size: 2,
      filters: {
        job_title: { values: ['engineer'], include_related_job_titles: true },
        skills: { values: ['python'] },
        company_name: { values: ['acme'] },
      },
    },
  ];
}

export const numericEdge = fc.constantFrom(
  Number.NaN,
  Number.POSITIVE_INFINITY,
  -0,
  1e308,
  -1e308,
  2 ** 53 + 1,
  Number.MIN_VALUE,
  2 ** 31,
  -(2 ** 31) - 1,
);

/** A deeply nested value (objects or lists), up to well past the depth limit. */
const deep = fc
  .integer({ min: 1, max: 300 })
  .chain((d) =>
    fc.constantFrom<unknown>(
      JSON.parse('{"a":'.repeat(d) + '1' + '}'.repeat(d)),
      JSON.parse('['.repeat(d) + ']'.repeat(d)),
    ),
  );

export const nasty = fc.oneof(
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
  hostileString,
  numericEdge,
  deep,
  fc.array(hostileString, { maxLength: 3 }),
  fc.integer({ min: 1_000, max: 20_000 }).map((n) => Array.from({ length: n }, (_, i) => `unknown_${i}`)),
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

/**
 * Request bodies: mutated seeds (a member replaced by a nasty value or deleted), arbitrary values,
 * broken JSON texts and bytes, and the seeds as JSON text.
 */
export function fuzzBody(ids: { businessId: string; prospectId?: string }) {
  const { businessId, prospectId } = ids;
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...seeds(businessId, prospectId)),
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
              'prospects_to_match',
              'full_name',
              'company_name',
              'email',
              'event_types',
              'business_ids',
              'exclude',
              'job_title',
              'include_related_job_titles',
              'has_email',
              'value',
              'resolution',
              'webhook_url',
              'enrollment_key',
            ),
            { minLength: 1, maxLength: 4 },
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
          Buffer.concat([
            Buffer.from('{"a":"'),
            Buffer.from(b),
            Buffer.from([0xff, 0xfe]),
            Buffer.from('"}'),
          ]),
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
    { weight: 1, arbitrary: fc.constantFrom(...seeds(businessId, prospectId)).map((s) => JSON.stringify(s)) },
  );
}
