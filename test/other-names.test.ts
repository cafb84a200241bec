/**
 * A business's other names (`other_names`: former legal names, trading, short and transliterated
 * names): validated and reported like any field, returned in full records and exports, matched on
 * (current names win), filtered and completed on, and saved with the indexes.
 */
import { writeFileSync } from 'node:fs';
import { tempDir } from './support/temp.js';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { autocomplete } from '../src/core/autocomplete.js';
import { fetchBusinesses, fetchProspects } from '../src/core/fetch.js';
import { matchBusinessRows } from '../src/core/match/index.js';
import { buildIndexes } from '../src/core/warm.js';
import { openEngine, type Engine } from '../src/engine.js';
import { EngineError } from '../src/errors.js';
import { handle } from '../src/facade/handle.js';
import { OTHER_NAME_TYPES } from '../src/schemas/records.js';
import {
  OTHER_NAME_FORM,
  otherNameIndex,
  otherNameTokens,
  type OtherNameIndex,
} from '../src/indexes/match/other-names.js';
import { savedIndex } from '../src/indexes/persist.js';
import { companyMatchName } from '../src/normalise/index.js';
import { account } from './support/job-child.js';
import { businessId, engineOf } from './support/snapshot.js';

const business = (i: number, name: string, other_names?: unknown, extra: object = {}) => ({
  business_id: businessId(i),
  name,
  country_code: 'nl',
  number_of_employees_range: '1001-5000',
  ...(other_names === undefined ? {} : { other_names }),
  ...extra,
});

const prospect = (i: number, b: number) => ({
  prospect_id: i.toString(16).padStart(40, '0'),
  business_id: businessId(b),
  full_name: `Person ${i}`,
  job_title: 'Engineer',
});

/** A snapshot folder of `businesses` (and `prospects`) as JSON Lines. */
function snapshotDir(businesses: object[], prospects: object[] = []): string {
  const dir = tempDir('pdb-other-names-');
  const lines = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  writeFileSync(join(dir, 'businesses.jsonl'), lines(businesses));
  if (prospects.length > 0) writeFileSync(join(dir, 'prospects.jsonl'), lines(prospects));
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ format_version: 1, as_of: '2026-11-01T00:00:00Z' }),
  );
  return dir;
}

const TATA = business(0, 'Tata Steel Nederland B.V.', [
  { name: 'Koninklijke Hoogovens N.V.', type: 'previous_legal_name' },
  { name: 'Corus Nederland B.V.', type: 'previous_legal_name' },
  { name: 'Hoogovens', type: 'short_name' },
]);
// Holds as its current name a name Tata Steel once had: the current name wins.
const CORUS = business(1, 'Corus Nederland B.V.');
const PHILIPS = business(2, 'Koninklijke Philips N.V.', [{ name: 'Philips Lighting', type: 'trading_name' }]);
const PLAIN = business(3, 'Brightwell Engineering B.V.');
const BUSINESSES = [TATA, CORUS, PHILIPS, PLAIN];

let engine: Engine;
beforeAll(async () => {
  engine = await engineOf({ businesses: BUSINESSES, prospects: [prospect(1, 0), prospect(2, 2)] });
});
afterAll(() => engine.close());

describe('other_names in a snapshot', () => {
  it('refuses a bad type, more than 20 entries or a name that is not a string, and loads the rest', async () => {
    const e = openEngine();
    try {
      const many = Array.from({ length: 21 }, (_, i) => ({ name: `Acme ${i}`, type: 'trading_name' }));
      const twenty = many.slice(0, 20);
      const report = await e.load(
        snapshotDir([
          business(10, 'Good Name B.V.', [{ name: 'Old Name B.V.', type: 'previous_legal_name' }]),
          business(11, 'Bad Type B.V.', [{ name: 'Old', type: 'former_name' }]),
          business(12, 'Too Many B.V.', many),
          business(13, 'Numeric B.V.', [{ name: 42, type: 'other' }]),
          business(14, 'Twenty B.V.', twenty),
          business(15, 'Blank B.V.', [{ name: '  ', type: 'short_name' }]),
          business(16, 'Not A List B.V.', 'Old Name'),
          business(17, 'Null B.V.', null),
        ]),
      );
      expect(report.streams[0]).toMatchObject({ read: 8, loaded: 3, invalid: 5 });
      expect(report.issues.map((i) => [i.line, i.reason])).toEqual([
        [
          2,
          'other_names.0.type: Invalid option: expected one of "previous_legal_name"|"trading_name"|"short_name"|"transliterated_name"|"other"',
        ],
        [3, 'other_names: Too big: expected array to have <=20 items'],
        [4, 'other_names.0.name: Invalid input: expected string, received number'],
        [6, 'other_names.0.name: must not be blank'],
        [7, 'other_names: Invalid input: expected array, received string'],
      ]);
      expect(report.issues.every((i) => i.file.endsWith('businesses.jsonl'))).toBe(true);
    } finally {
      e.close();
    }
  });

  it('in strict mode refuses the whole snapshot for one bad entry', async () => {
    const e = openEngine();
    try {
      const error = await e
        .load(snapshotDir([PLAIN, business(5, 'X B.V.', [{ name: 'Y', type: 'nickname' }])]), {
          strict: true,
        })
        .catch((x: unknown) => x);
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).code).toBe('SNAPSHOT_INVALID');
      expect(e.info().counts.businesses).toBe(0);
    } finally {
      e.close();
    }
  });
});

describe('full records', () => {
  it('carry other_names as {name, type} in v1 and v2, [] when there are none; previews leave them out', async () => {
    const { api_key } = await account(engine);
    const expected = [TATA.other_names, [], PHILIPS.other_names, []];
    for (const version of ['v1', 'v2'] as const) {
      const r = (await handle(engine, {
        method: 'POST',
        path: `/${version}/businesses`,
        headers: { api_key },
        body: { mode: 'full', page_size: 10 },
      })) as { status: number; body: { data: Record<string, unknown>[] } };
      expect(r.status).toBe(200);
      expect(r.body.data.map((b) => b.other_names)).toEqual(expected);
    }
    const preview = fetchBusinesses(engine, { mode: 'preview', page_size: 10 }, 2);
    expect(preview.data.every((b) => !('other_names' in b))).toBe(true);
  });
});

describe('business match on other names', () => {
  const match = (name: string) => matchBusinessRows(engine, [{ name }], { explain: true })[0]!;

  it('resolves a former name to the renamed business, matched_on other_name', () => {
    for (const name of ['Koninklijke Hoogovens N.V.', 'koninklijke hoogovens', 'Hoogovens']) {
      const row = match(name);
      expect(row.business_id).toBe(businessId(0));
      expect(row.matched_on).toEqual(['name', 'other_name']);
    }
  });

  it('resolves a misspelt other name fuzzily, matched_on name_fuzzy and other_name', () => {
    const row = match('Koninklijke Hoogovenz');
    expect(row.business_id).toBe(businessId(0));
    expect(row.matched_on).toEqual(['name_fuzzy', 'other_name']);
  });

  it('gives a former name that another business now holds as its current name to that business', () => {
    const row = match('Corus Nederland B.V.');
    expect(row.business_id).toBe(businessId(1));
    expect(row.matched_on).toEqual(['name']);
  });

  it('leaves current names matched as before', () => {
    expect(match('Koninklijke Philips N.V.')).toMatchObject({
      business_id: businessId(2),
      matched_on: ['name'],
    });
    expect(match('Philips Lighting')).toMatchObject({
      business_id: businessId(2),
      matched_on: ['name', 'other_name'],
    });
    expect(match('Brightwell Engineering')).toMatchObject({ business_id: businessId(3) });
    expect(match('Unheard Of Name')).toMatchObject({ business_id: null });
  });
});

describe('company_name filter and autocomplete', () => {
  it('finds businesses and their prospects by an other name', () => {
    const businesses = (value: string) =>
      fetchBusinesses(
        engine,
        { mode: 'preview', page_size: 10, filters: { company_name: { values: [value] } } },
        2,
      ).data.map((b) => b.business_id);
    expect(businesses('Koninklijke Hoogovens')).toEqual([businessId(0)]);
    expect(businesses('Philips Lighting')).toEqual([businessId(2)]);
    // A name one business has now and another had: both.
    expect(businesses('Corus Nederland')).toEqual([businessId(0), businessId(1)]);
    const negated = fetchBusinesses(
      engine,
      { mode: 'preview', page_size: 10, filters: { company_name: { values: ['Hoogovens'], negate: true } } },
      2,
    );
    expect(negated.data.map((b) => b.business_id)).toEqual([businessId(1), businessId(2), businessId(3)]);
    const prospects = fetchProspects(
      engine,
      { mode: 'preview', page_size: 10, filters: { company_name: { values: ['Hoogovens'] } } },
      2,
    );
    expect(prospects.data.map((p) => p.business_id)).toEqual([businessId(0)]);
  });

  it('suggests the current name for a query of an other name', () => {
    const items = autocomplete(engine, { field: 'company_name', query: 'hoogov', semantic_search: false });
    expect(items).toEqual([
      { query: 'hoogov', label: 'Tata Steel Nederland B.V.', value: 'Tata Steel Nederland B.V.' },
    ]);
    const lighting = autocomplete(engine, {
      field: 'company_name',
      query: 'philips light',
      semantic_search: false,
    });
    expect(lighting.map((i) => i.label)).toEqual(['Koninklijke Philips N.V.']);
  });
});

describe('saved other-name indexes', () => {
  it('are read back by a later process, which answers without building them', async () => {
    const path = join(tempDir('pdb-other-saved-'), 'other.db');
    const writer = openEngine({ path });
    await writer.load(snapshotDir(BUSINESSES), { strict: true });
    buildIndexes(writer);
    const built = { index: otherNameIndex(writer), tokens: otherNameTokens(writer) };
    writer.close();
    const reader = openEngine({ path, readonly: true });
    try {
      const notBuilt = (): never => {
        throw new Error('rebuilt instead of read back');
      };
      const saved = reader.indexes.get(savedIndex('match.businesses.otherNames', notBuilt, OTHER_NAME_FORM));
      const entries = (i: OtherNameIndex) =>
        Array.from({ length: i.size }, (_, e) => [
          i.owner[e],
          i.names.at(e),
          i.nameKeys.at(e),
          i.forms.at(e),
          i.byNameKey.get(i.nameKeys.at(e) as string),
        ]);
      expect(entries(saved)).toEqual(entries(built.index));
      const notices: string[] = [];
      const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void notices.push(line));
      try {
        const row = matchBusinessRows(reader, [{ name: 'Koninklijke Hoogovenz' }], { explain: true })[0];
        expect(row).toMatchObject({ business_id: businessId(0), matched_on: ['name_fuzzy', 'other_name'] });
      } finally {
        spy.mockRestore();
      }
      expect(notices).toEqual([]);
      // Entries: every other name, by business, with its owner's position.
      expect(Array.from({ length: built.index.size }, (_, e) => built.index.names.at(e))).toEqual([
        'Koninklijke Hoogovens N.V.',
        'Corus Nederland B.V.',
        'Hoogovens',
        'Philips Lighting',
      ]);
      expect([...built.index.owner]).toEqual([0, 0, 0, 2]);
    } finally {
      reader.close();
    }
  });
});

describe('property: any other name of a record, unique across the snapshot, resolves to it', () => {
  // Words no generated current name uses, so an other name is unique by construction of its key.
  const WORDS = [
    'zephyr',
    'quill',
    'marrow',
    'lumen',
    'basalt',
    'cinder',
    'fjord',
    'tarn',
    'vesper',
    'sorrel',
  ];
  const otherName = fc.record({
    words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
    form: fc.constantFrom('', ' B.V.', ' GmbH', ' Ltd'),
    type: fc.constantFrom(...OTHER_NAME_TYPES),
  });

  it('holds on random snapshots', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(otherName, { maxLength: 4 }), { minLength: 2, maxLength: 8 }),
        async (perBusiness) => {
          // Keep an other name only when its key is unique across the snapshot (other and current names).
          const count = new Map<string, number>();
          const named = perBusiness.map((list, i) => ({
            current: `Holder ${String.fromCharCode(97 + i)} Industries`,
            others: list.map((o) => ({ name: `${o.words.join(' ')}${o.form}`, type: o.type })),
          }));
          for (const b of named) {
            for (const n of [b.current, ...b.others.map((o) => o.name)]) {
              const key = companyMatchName(n).key;
              count.set(key, (count.get(key) ?? 0) + 1);
            }
          }
          const e = await engineOf({
            businesses: named.map((b, i) => business(100 + i, b.current, b.others)),
          });
          try {
            for (const [i, b] of named.entries()) {
              for (const o of b.others) {
                if (count.get(companyMatchName(o.name).key) !== 1) continue;
                const row = matchBusinessRows(e, [{ name: o.name }], { explain: true })[0]!;
                expect(row.business_id).toBe(businessId(100 + i));
                expect(row.matched_on).toContain('other_name');
              }
            }
          } finally {
            e.close();
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
