/**
 * The compact stored records (schema 5, 6 with `other_names`): every fetch shape answers exactly as the
 * layout before schema 5 did (digests made on `main` at 288dd0c, `support/records-golden.ts`, which
 * leaves out the `other_names` that layout did not have), and a record stored as
 * `wire` + `rest` decodes to the validated record it was built from (same keys, same order, same
 * values) for generated records and hostile variations of them.
 */
import fc from 'fast-check';
import type { ZodObject } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/engine.js';
import { businessRecord as genBusiness, makePlan, prospectAt } from '../tools/generate/index.js';
import { decodeDoc, packRest, REST_CODEC, unpackRest } from '../src/store/codec.js';
import { LOAD_SCHEMAS, validator } from '../src/store/validate.js';
import { RECORD_KEYS } from '../src/schemas/record-keys.js';
import {
  businessRecord,
  packWire,
  prospectRecord,
  unpackWire,
  WIRE_KEYS,
  type ProspectCompany,
} from '../src/store/wire.js';
import golden from './records.golden.json' with { type: 'json' };
import { demoEngine } from './support/demo.js';
import { recordsGolden } from './support/records-golden.js';

let engine: Engine;
beforeAll(async () => {
  engine = await demoEngine();
});
afterAll(() => engine.close());

describe('compact records over the demo snapshot', () => {
  it('answer every fetch and enrichment shape exactly as the layout before schema 5 did', async () => {
    expect(await recordsGolden(engine)).toEqual(golden);
  });

  it('store the fetch record as its values in WIRE_KEYS order, and nothing twice', () => {
    const row = engine.db.prepare('SELECT wire, rest FROM prospects WHERE rowid = 1').get() as {
      wire: Buffer;
      rest: Buffer;
    };
    const full = unpackWire('prospects', row.wire);
    expect(Object.keys(full)).toEqual(WIRE_KEYS.prospects);
    const rest = unpackRest('prospects', row.rest);
    // A field the fetch record shows as stored is not in `rest` again.
    for (const k of ['prospect_id', 'full_name', 'job_title', 'skills', 'linkedin'])
      expect(rest).not.toHaveProperty(k);
    const doc = decodeDoc('prospects', row.wire, row.rest);
    expect(doc.prospect_id).toBe(full.prospect_id);
    expect(() => unpackWire('businesses', row.wire)).toThrow('not a 21-value array');
  });
});

// ---------------------------------------------------------------------------------------------------

const plan = makePlan({ businesses: 400, prospects: 2000, events: 0, seed: 11 });
const validate = { businesses: validator('businesses'), prospects: validator('prospects') };
const company: ProspectCompany = {
  company_name: 'Acme Robotics, Inc.',
  company_website: null,
  company_linkedin: 'https://www.linkedin.com/company/acme',
};

type Obj = Record<string, unknown>;

/** Stores `record` as the loader does and reads it back. */
function roundTrip(stream: 'businesses' | 'prospects', record: Obj): { doc: Obj; full: Obj } {
  const full = (
    stream === 'prospects' ? prospectRecord(record as never, company) : businessRecord(record as never, [])
  ) as Obj;
  const wire = packWire(stream, full);
  const rest = packRest(stream, record, full, REST_CODEC);
  return { doc: decodeDoc(stream, wire, rest) as unknown as Obj, full: unpackWire(stream, wire) };
}

/** Keys at every depth, in order: `toEqual` ignores key order, the stored record must not. */
const keyPaths = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(keyPaths)
    : v !== null && typeof v === 'object'
      ? Object.entries(v).map(([k, x]) => [k, keyPaths(x)])
      : null;

/** Variations the generator does not make: nulls where the fetch record derives a value, unknown keys, odd text. */
const variation = fc.record({
  nulls: fc.subarray([
    'country_name',
    'region_name',
    'region',
    'job_level_main',
    'city',
    'linkedin',
    'domain',
    'website',
  ]),
  empties: fc.subarray([
    'job_level_array',
    'job_department_array',
    'skills',
    'interests',
    'google_category',
    'emails',
  ]),
  extra: fc.dictionary(
    fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !k.startsWith('~')),
    fc.jsonValue({ maxDepth: 2 }),
    { maxKeys: 3 },
  ),
  nestedExtra: fc.option(fc.string({ maxLength: 20 })),
  text: fc.string({ unit: 'binary', maxLength: 30 }),
});

type Variation = typeof variation extends fc.Arbitrary<infer T> ? T : never;

function vary(raw: Obj, v: Variation): Obj {
  const out: Obj = structuredClone(raw);
  for (const k of v.nulls) if (k in out) out[k] = null;
  for (const k of v.empties) if (k in out) out[k] = [];
  if ('city' in out && out.city !== null) out.city = v.text || out.city;
  if (v.nestedExtra !== null && Array.isArray(out.experience) && out.experience.length > 0) {
    (out.experience[0] as Obj).note = v.nestedExtra;
  }
  // Unknown keys follow the schema's (as validation orders them); `-0` is not JSON.
  return { ...out, ...JSON.parse(JSON.stringify(v.extra)) };
}

describe('a stored record', () => {
  it("orders and shares keys by RECORD_KEYS, which are the load schemas' keys in order", () => {
    for (const stream of ['businesses', 'prospects'] as const)
      expect(RECORD_KEYS[stream]).toEqual(Object.keys((LOAD_SCHEMAS[stream] as ZodObject).shape));
  });
  for (const stream of ['prospects', 'businesses'] as const) {
    it(`decodes to the validated ${stream} record it was built from, keys in order (property)`, () => {
      fc.assert(
        fc.property(fc.nat({ max: stream === 'prospects' ? 1999 : 399 }), variation, (i, v) => {
          const raw = stream === 'prospects' ? prospectAt(plan, i) : genBusiness(plan, i);
          const checked = validate[stream](JSON.parse(JSON.stringify(vary(raw, v))));
          if (!checked.ok) return; // a variation the schema refuses is never stored
          const record = checked.record as Obj;
          const { doc, full } = roundTrip(stream, record);
          expect(doc).toEqual(record);
          expect(keyPaths(doc)).toEqual(keyPaths(record));
          const expected =
            stream === 'prospects'
              ? prospectRecord(record as never, company)
              : businessRecord(record as never, []);
          expect(full).toEqual(expected);
          expect(Object.keys(full)).toEqual(Object.keys(expected));
        }),
        { numRuns: 150 },
      );
    });
  }

  it('keeps unknown keys named like Object.prototype members, and nested `__proto__` keys', () => {
    const raw = { ...prospectAt(plan, 5), valueOf: 1, constructor: 'x' } as Obj;
    raw.enrichments = JSON.parse('{"notes": {"__proto__": {"a": 1}, "b": [{"__proto__": 2}]}}');
    const checked = validate.prospects(raw);
    if (!checked.ok) throw new Error(checked.reason);
    const record = checked.record as Obj;
    const { doc } = roundTrip('prospects', record);
    expect(doc).toEqual(record);
    expect(keyPaths(doc)).toEqual(keyPaths(record));
    expect(JSON.stringify(doc)).toBe(JSON.stringify(record));
    expect(JSON.stringify(doc)).toContain('"__proto__":{"a":1}');
  });

  it('is stored whole when its keys are not in the validated order, and still decodes to it', () => {
    const checked = validate.prospects(prospectAt(plan, 3));
    if (!checked.ok) throw new Error(checked.reason);
    const record = checked.record as Obj;
    const { prospect_id, ...others } = record;
    const shuffled = { ...others, prospect_id };
    const { doc } = roundTrip('prospects', shuffled);
    expect(Object.keys(doc)).toEqual(Object.keys(shuffled));
    expect(doc).toEqual(shuffled);
  });
});
