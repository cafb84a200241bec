/**
 * Company names in autocomplete and `company_name` filters read legal forms the way the matcher does:
 * "brightwell nv" finds "Brightwell N.V.", whatever spelling of the form is typed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autocomplete } from '../src/core/autocomplete.js';
import { businessFilterSet, prospectFilterSet } from '../src/core/filters.js';
import type { Engine } from '../src/engine.js';
import { take } from '../src/indexes/bitset.js';
import { CompletionIndex, tagWord } from '../src/indexes/completion.js';
import { BusinessFilters, ProspectFilters } from '../src/schemas/filters.js';
import { AutocompleteQuery } from '../src/schemas/search.js';
import { engineOf } from './support/snapshot.js';

/** Name, and how many prospects work there (weights: Electronics 4, N.V. 2, the others 1). */
const BUSINESSES: [string, number][] = [
  ['Brightwell N.V.', 1],
  ['Brightwell Holdings Ltd', 0],
  ['Brightwell Electronics NV', 3],
  ['Acme AG', 0],
  ['Acme Robotics GmbH', 0],
  ['Nordlicht Aktiengesellschaft', 0],
];
const bid = (i: number) => `b${i.toString(16).padStart(31, '0')}`;
const pid = (i: number) => `c${i.toString(16).padStart(39, '0')}`;

let engine: Engine;
let businessIds: Map<number, string>;
let prospectIds: Map<number, string>;
beforeAll(async () => {
  const businesses = BUSINESSES.map(([name], i) => ({
    business_id: bid(i),
    name,
    country_code: 'NL',
    number_of_employees_range: '11-50',
  }));
  const prospects: object[] = [];
  BUSINESSES.forEach(([, staff], b) => {
    for (let k = 0; k < staff; k++)
      prospects.push({
        prospect_id: pid(prospects.length),
        business_id: bid(b),
        full_name: `Person ${prospects.length}`,
        job_title: 'Engineer',
        emails: [],
        phone_numbers: [],
      });
  });
  engine = await engineOf({ businesses, prospects });
  const ids = (table: string, column: string) =>
    new Map(
      (
        engine.db.prepare(`SELECT rowid, ${column} AS id FROM ${table}`).all() as {
          rowid: number;
          id: string;
        }[]
      ).map((r) => [r.rowid, r.id]),
    );
  businessIds = ids('businesses', 'business_id');
  prospectIds = ids('prospects', 'prospect_id');
});
afterAll(() => engine.close());

const ac = (query: string, field = 'company_name') =>
  autocomplete(engine, AutocompleteQuery.parse({ field, query, semantic_search: 'false' })).map(
    (i) => i.value,
  );

describe('company_name autocomplete reads legal forms', () => {
  it('plain name queries rank by weight as before', () => {
    expect(ac('brightwell')).toEqual([
      'Brightwell Electronics NV', // 1 business + 3 prospects
      'Brightwell N.V.', // 1 + 1
      'Brightwell Holdings Ltd', // 1
    ]);
    expect(ac('acme')).toEqual(['Acme AG', 'Acme Robotics GmbH']);
    expect(ac('nv')).toEqual(['Brightwell Electronics NV']); // a form alone is read literally
  });

  it('finds a name with its form in any ISO 20275 spelling, at either end, names with the form first', () => {
    // Those with the form by weight, then the namesake without it.
    const want = ['Brightwell Electronics NV', 'Brightwell N.V.', 'Brightwell Holdings Ltd'];
    for (const q of [
      'brightwell nv',
      'Brightwell N.V.',
      'brightwell n v',
      'brightwell naamloze vennootschap',
      'N.V. Brightwell',
      'brightwel nv', // one typo in the name
    ])
      expect(ac(q), q).toEqual(want);
    expect(ac('brightwell electronics n.v.')).toEqual(['Brightwell Electronics NV']);
    expect(ac('brightwell ltd')).toEqual([
      'Brightwell Holdings Ltd',
      'Brightwell Electronics NV',
      'Brightwell N.V.',
    ]);
    expect(ac('brightwell limited')).toEqual(ac('brightwell ltd'));
  });

  it('reads another spelling of the same class as that form; another form only fills after', () => {
    expect(ac('acme aktiengesellschaft')).toEqual(['Acme AG', 'Acme Robotics GmbH']);
    expect(ac('acme a.g.')).toEqual(['Acme AG', 'Acme Robotics GmbH']);
    expect(ac('acme gmbh')).toEqual(['Acme Robotics GmbH', 'Acme AG']);
    expect(ac('acme gesellschaft mit beschrankter haftung')).toEqual(['Acme Robotics GmbH', 'Acme AG']);
    expect(ac('nordlicht ag')).toEqual(['Nordlicht Aktiengesellschaft']);
    expect(ac('acme robotics ag')).toEqual(['Acme Robotics GmbH']);
  });

  it('leaves other fields alone', () => {
    expect(ac('engineer nv', 'job_title')).toEqual([]);
    expect(ac('engin', 'job_title')).toEqual(['Engineer']);
  });
});

describe('completion tags', () => {
  const index = new CompletionIndex([
    { label: 'Brightwell N.V.', value: 'a', weight: 2, tags: ['nv'] },
    { label: 'Nvidia Corporation', value: 'b', weight: 1, tags: ['corporation'] },
    { label: 'Brightwell', value: 'c', weight: 0 },
  ]);
  const values = (readings: string[][]) => index.searchReadings([readings]).map((i) => i.value);

  it('match whole, only through tag words, never by prefix or typo', () => {
    expect(values([['brightwell', tagWord('nv')]])).toEqual(['a']);
    expect(values([[tagWord('n')]])).toEqual([]);
    expect(values([['brightwel', tagWord('nvx')]])).toEqual([]);
    expect(index.search('nv').map((i) => i.value)).toEqual(['b']);
    expect(index.search('corporatio').map((i) => i.value)).toEqual(['b']);
    expect(index.search('brightwell nv').map((i) => i.value)).toEqual([]);
  });

  it('merge readings by rank inside a tier, later tiers fill', () => {
    expect(values([['nvidia'], ['brightwell']])).toEqual(['a', 'b', 'c']);
    expect(index.searchReadings([[['nvidia']], [['brightwell']]]).map((i) => i.value)).toEqual([
      'b',
      'a',
      'c',
    ]);
    expect(index.searchReadings([[['nvidia']], [['brightwell']]], 2).map((i) => i.value)).toEqual(['b', 'a']);
  });
});

describe('company_name filters read the form the way stored keys do', () => {
  const businesses = (value: string) =>
    take(
      businessFilterSet(engine, BusinessFilters.parse({ company_name: { values: [value] } }), 1),
      0,
      1e9,
    ).map((r) => businessIds.get(r)!);
  const prospects = (value: string) =>
    take(prospectFilterSet(engine, ProspectFilters.parse({ company_name: { values: [value] } })), 0, 1e9).map(
      (r) => prospectIds.get(r)!,
    );

  it('finds the record whatever spelling, case or punctuation of the form', () => {
    for (const v of [
      'Brightwell N.V.',
      'Brightwell Naamloze Vennootschap',
      'Brightwell N. V.',
      'BRIGHTWELL n.v',
      'brightwell-nv',
      'Brightwell',
    ]) {
      expect(businesses(v), v).toEqual([bid(0)]);
      expect(prospects(v), v).toEqual([pid(0)]);
    }
    expect(businesses('Acme Aktiengesellschaft')).toEqual([bid(3)]);
    expect(businesses('acme a.g.')).toEqual([bid(3)]);
    expect(businesses('Nordlicht AG')).toEqual([bid(5)]);
    expect(businesses('Brightwell Holdings Limited')).toEqual([bid(1)]);
    expect(businesses('Brightwell Electronics Naamloze Vennootschap')).toEqual([bid(2)]);
    expect(prospects('brightwell electronics n.v.')).toEqual([pid(1), pid(2), pid(3)]);
  });

  it('reads a legal form written in front as autocomplete does ("N.V. Brightwell" finds "Brightwell N.V.")', () => {
    for (const v of ['N.V. Brightwell', 'N V Brightwell', 'Naamloze Vennootschap Brightwell']) {
      expect(businesses(v), v).toEqual([bid(0)]);
      expect(prospects(v), v).toEqual([pid(0)]);
    }
    expect(businesses('Aktiengesellschaft Acme')).toEqual([bid(3)]);
    // An abbreviation its jurisdictions write after the name is a word of the name in front ("MPS
    // Partners", "BRL Logistiek"): only the few written in front there (N.V., AB, PT, …) are read so.
    expect(businesses('AG Acme')).toEqual([]);
    // A form alone, or a form inside the name, stays a word.
    expect(businesses('N.V.')).toEqual([]);
    expect(businesses('Brightwell N.V. Electronics')).toEqual([]);
  });
});
