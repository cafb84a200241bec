import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autocomplete, AUTOCOMPLETE_LIMIT } from '../src/core/autocomplete.js';
import { openEngine, type Engine } from '../src/engine.js';
import { AUTOCOMPLETE_FIELDS } from '../src/schemas/enums.js';
import { AutocompleteQuery } from '../src/schemas/search.js';
import { NOW, synthetic } from './search.oracle.js';

let engine: Engine;
beforeAll(async () => {
  const data = synthetic(31, 120, 600);
  engine = openEngine({ clock: () => NOW });
  await engine.load(data.dir, { strict: true });
});
afterAll(() => engine.close());

const ac = (field: string, query = '', semantic = false) =>
  autocomplete(
    engine,
    AutocompleteQuery.parse({ field, query, semantic_search: semantic ? 'true' : 'false' }),
  );

describe('autocomplete', () => {
  it('completes countries by any word prefix, ranked by how common they are', () => {
    const items = ac('country', 'unit');
    expect(items[0]).toEqual({ query: 'unit', label: 'United States', value: 'us' });
    expect(items.map((i) => i.value)).toEqual(expect.arrayContaining(['gb', 'ae', 'tz', 'um']));
    expect(items.find((i) => i.value === 'tz')!.label).toBe('Tanzania, United Republic Of');
  });

  it('answers every field of the enumeration with bounded results', () => {
    for (const field of AUTOCOMPLETE_FIELDS) {
      const items = ac(field);
      expect(items.length, field).toBeGreaterThan(0);
      expect(items.length).toBeLessThanOrEqual(AUTOCOMPLETE_LIMIT);
      for (const i of items) expect(Object.keys(i)).toEqual(['query', 'label', 'value']);
    }
  });

  it('tolerates one typo and keeps prefix matches first', () => {
    expect(ac('job_title', 'enginer').map((i) => i.label)).toEqual(
      expect.arrayContaining(['Backend Engineer', 'Senior Software Engineer']),
    );
    expect(ac('country', 'germny')[0]!.value).toBe('de');
    expect(ac('job_title', 'soft').every((i) => /soft/i.test(i.label))).toBe(true);
  });

  it('maps legacy job levels and codes', () => {
    expect(ac('job_level', 'cxo')[0]!.value).toBe('c-suite');
    expect(ac('region_country_code', 'us-ca')[0]).toMatchObject({ label: 'California, US', value: 'us-ca' });
    expect(ac('naics_category', '5415').every((i) => i.value.startsWith('5415'))).toBe(true);
  });

  it('ranks by frequency in the data', () => {
    const items = ac('company_size');
    const counts = engine.db
      .prepare(
        'SELECT size, count(*) AS n FROM businesses WHERE size IS NOT NULL GROUP BY size ORDER BY n DESC, size',
      )
      .all() as { size: string; n: number }[];
    expect(items.slice(0, counts.length).map((i) => i.value)).toEqual(counts.map((c) => c.size));
  });

  it('finds related intent topics with semantic search', () => {
    const items = ac('business_intent_topics', 'cloude', true);
    expect(items.map((i) => i.value)).toEqual(
      expect.arrayContaining(['cloud: cloud data', 'Security:Cloud Security']),
    );
    expect(ac('job_title', 'programmer', true).map((i) => i.label)).toEqual(
      expect.arrayContaining(['Software Developer']),
    );
  });

  it('parses the query string the pydantic way', () => {
    expect(AutocompleteQuery.parse({ field: 'country' })).toEqual({
      field: 'country',
      query: '',
      semantic_search: false,
    });
    expect(AutocompleteQuery.safeParse({ field: 'colour' }).success).toBe(false);
    expect(AutocompleteQuery.safeParse({ field: 'country', semantic_search: 'maybe' }).success).toBe(false);
  });
});
