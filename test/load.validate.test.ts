/**
 * Property tests: the loader's hand-written record check (`fastBusiness`, `fastProspect`) and the zod
 * schemas it stands in for agree on every record: whatever the fast check accepts, zod accepts with the
 * same output (same keys in the same order, same values), and the validator (fast check, then zod)
 * accepts and refuses exactly what zod does. Records are the demo fixture's, then randomly mutated.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { fastBusiness, fastProspect, LOAD_SCHEMAS, validator } from '../src/store/validate.js';
import { entries } from './support/entries.js';

const demo = (stream: string): Record<string, unknown>[] =>
  gunzipSync(readFileSync(new URL(`../fixtures/demo/${stream}.jsonl.gz`, import.meta.url)))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const BUSINESSES = demo('businesses');
const PROSPECTS = demo('prospects');

// Plain maps with `undefined` kept: equal bytes mean the same keys, in the same order, with equal values.
const bytes = new Packr({ useRecords: false, moreTypes: false });

type Stream = 'businesses' | 'prospects';
const FAST = { businesses: fastBusiness, prospects: fastProspect };

/** The fast check and the validator against zod, for one value. */
function agree(stream: Stream, value: unknown): void {
  const expected = LOAD_SCHEMAS[stream].safeParse(value);
  const want = expected.success ? bytes.pack(expected.data) : undefined;
  const fast = FAST[stream](value);
  if (fast !== undefined) {
    expect(expected.success).toBe(true);
    if (!bytes.pack(fast).equals(want!)) expect(entries(fast)).toEqual(entries(expected.data));
  }
  const got = validator(stream)(value);
  expect(got.ok).toBe(expected.success);
  if (got.ok && !bytes.pack(got.record).equals(want!)) {
    expect(entries(got.record)).toEqual(entries(expected.data));
  }
}

/** Values that sit on the edges of the schemas: wrong types, case, ranges, shapes. */
const EDGES: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'x',
  'trading_name',
  'Trading_Name',
  'US',
  'us',
  'Us',
  'zz',
  'US-CA',
  'us-ca',
  'us-zz',
  '51-200',
  '10M-25M',
  'vice president',
  'Vice President',
  'engineering',
  'high_intent',
  'professional',
  'valid',
  '+14155550123',
  '+0123',
  'a@b',
  '@',
  'a@',
  'ab',
  'a'.repeat(32),
  'A'.repeat(32),
  '1'.repeat(40),
  0,
  1,
  -1,
  9,
  10,
  999,
  1000,
  2026,
  2101,
  999_999,
  1_000_000,
  1.5,
  Number.MAX_SAFE_INTEGER + 1,
  Infinity,
  -Infinity,
  NaN,
  true,
  false,
  [],
  {},
  [null],
  ['a', 'b'],
  ['a', 1],
  ['c-suite', 'owner'],
  ['c-suite', 'cxo'],
  [{}],
  [{ country_code: 'FR', city_name: 'Paris', extra: 1 }],
  [{ country_code: 'xx' }],
  [{ topic: 'cloud', intent_level: 'high_intent' }],
  [{ topic: '', intent_level: 'high_intent' }],
  [{ address: 'a@b.co', type: 'personal', status: null, source: 'x', more: [1] }],
  [{ address: 'a@b.co', type: 'work' }],
  [{ phone_number: '+4930123456', type: null }],
  [{ phone_number: '030 123456' }],
  [{ title: 'CTO', company_name: 'Acme', start_date: '2020-01-01', note: 'x' }],
  [{ school: 'MIT', end_year: 2020.5 }],
  [{ school: 'MIT', end_year: 2020 }],
  new Date(0),
  new Uint8Array([1, 2]),
];
const tricky = fc.oneof(
  { arbitrary: fc.constantFrom(...EDGES), weight: 4 },
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A demo record with 1–4 random edits: a key set to a tricky value, removed, or a nested value edited. */
const mutated = (records: Record<string, unknown>[]) =>
  fc
    .tuple(
      fc.nat({ max: records.length - 1 }),
      fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat({ max: 3 }), tricky), { minLength: 1, maxLength: 6 }),
    )
    .map(([at, edits]) => {
      const record = structuredClone(records[at]!);
      const keys = [...Object.keys(record), 'extra_field', '__proto__'];
      for (const [k, inner, kind, shared] of edits) {
        // A copy: EDGES holds shared objects, and an edit into one placed earlier made a cycle (and
        // changed EDGES for every later run).
        const value = structuredClone(shared);
        const name = keys[k % keys.length]!;
        const current = record[name];
        if (kind === 0) delete record[name];
        else if (kind === 1 && Array.isArray(current) && current.length > 0) {
          const item = current[inner % current.length] as unknown;
          if (item && typeof item === 'object' && !Array.isArray(item)) {
            const itemKeys = [...Object.keys(item), 'extra'];
            (item as Record<string, unknown>)[itemKeys[inner % itemKeys.length]!] = value;
          } else current[inner % current.length] = value;
        } else
          Object.defineProperty(record, name, {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
      }
      return record;
    });

describe('fast record validation', () => {
  it('agrees with zod on every demo record, and takes the fast path for all of them', () => {
    for (const b of BUSINESSES) {
      if (fastBusiness(b) === undefined) expect(b).toBe('taken by the fast check');
      agree('businesses', b);
    }
    for (const p of PROSPECTS) {
      if (fastProspect(p) === undefined) expect(p).toBe('taken by the fast check');
      agree('prospects', p);
    }
  });

  it('agrees with zod on every single-field edit of a record to an edge value', () => {
    for (const [stream, record] of [
      ['businesses', BUSINESSES[0]!],
      ['prospects', PROSPECTS[0]!],
    ] as const) {
      for (const key of [...Object.keys(record), 'extra_field']) {
        for (const value of EDGES) {
          agree(stream, { ...record, [key]: value });
          const { [key]: _, ...without } = record;
          agree(stream, without);
        }
      }
      // Nested loose objects: every field of a list item.
      const nested =
        stream === 'businesses'
          ? {
              operating_locations: { country_code: 'fr', region_country_code: null, city_name: 'Paris' },
              business_intent_topics: { topic: 'cloud', intent_level: 'high_intent' },
              other_names: { name: 'Acme Holding B.V.', type: 'previous_legal_name' },
            }
          : {
              emails: { address: 'a@b.co', type: 'personal', status: 'valid', source: 'x' },
              phone_numbers: { phone_number: '+4930123456', type: 'mobile', source: 'x' },
              experience: { company_name: 'Acme', title: 'CTO', start_date: null, end_date: null },
              education: { school: 'MIT', degree: null, field: null, end_year: 2020 },
            };
      for (const [list, item] of Object.entries(nested)) {
        for (const key of [...Object.keys(item), 'extra']) {
          for (const value of EDGES) agree(stream, { ...record, [list]: [item, { ...item, [key]: value }] });
        }
      }
    }
  });

  it('agrees with zod on other_names lists at and past their limit of 20', () => {
    const item = (i: number) => ({ name: `Acme ${i}`, type: 'trading_name' });
    for (const n of [0, 1, 19, 20, 21, 40]) {
      const record = { ...BUSINESSES[0]!, other_names: Array.from({ length: n }, (_, i) => item(i)) };
      agree('businesses', record);
      expect(validator('businesses')(record).ok).toBe(n <= 20);
    }
  });

  it('agrees with zod on mutated business records', () => {
    fc.assert(
      fc.property(mutated(BUSINESSES), (r) => agree('businesses', r)),
      { numRuns: 2000 },
    );
  });

  it('agrees with zod on mutated prospect records', () => {
    fc.assert(
      fc.property(mutated(PROSPECTS), (r) => agree('prospects', r)),
      { numRuns: 2000 },
    );
  });

  it('agrees with zod on arbitrary values', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.dictionary(fc.string(), tricky)), (v) => {
        agree('businesses', v);
        agree('prospects', v);
      }),
      { numRuns: 1000 },
    );
  });

  it('words a refused record as zod does, with the path of the bad field', () => {
    const record = { ...structuredClone(BUSINESSES[0]!), number_of_employees_range: '10-50' };
    const got = validator('businesses')(record);
    expect(got).toEqual({ ok: false, reason: expect.stringMatching(/^number_of_employees_range: /) });
  });
});
