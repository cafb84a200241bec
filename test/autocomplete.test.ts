import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { autocomplete, AUTOCOMPLETE_LIMIT } from '../src/core/autocomplete.js';
import { openEngine, type Engine } from '../src/engine.js';
import { prefixWithinOneEdit } from '../src/indexes/completion.js';
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

describe('autocomplete typo tolerance and bounds', () => {
  it('tolerates a typo in any word, not only the last', () => {
    const labels = ac('job_title', 'sofware eng').map((i) => i.label);
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.every((l) => /software/i.test(l) && /\beng/i.test(l))).toBe(true);
    expect(labels).toEqual(expect.arrayContaining(['Senior Software Engineer']));
    // A transposition in the first word, an exact prefix in the second.
    expect(ac('job_title', 'sotfware engineer').map((i) => i.label)).toEqual(
      expect.arrayContaining(['Senior Software Engineer']),
    );
    // Typos in two words at once.
    expect(ac('country', 'unted sttes').map((i) => i.value)).toContain('us');
  });

  it('keeps exact prefix matches ahead of typo matches', () => {
    const items = ac('country', 'unit');
    const exact = items.filter((i) =>
      i.label
        .toLowerCase()
        .split(/[ ,]+/)
        .some((w) => w.startsWith('unit')),
    );
    expect(items.slice(0, exact.length)).toEqual(exact);
  });

  it('answers long and hostile queries from the library quickly and sensibly', () => {
    for (const q of ['a'.repeat(50_000), 'sofware '.repeat(5_000), 'İ'.repeat(3_000), 'ﬃ'.repeat(5_000)]) {
      const items = autocomplete(engine, { field: 'job_title', query: q, semantic_search: false });
      expect(items.length).toBeLessThanOrEqual(AUTOCOMPLETE_LIMIT);
      for (const i of items) expect(i.query.length).toBeLessThanOrEqual(200);
      const semantic = autocomplete(engine, { field: 'job_title', query: q, semantic_search: true });
      expect(semantic.length).toBeLessThanOrEqual(AUTOCOMPLETE_LIMIT);
    }
  });
});

describe('prefixWithinOneEdit (oracle: edit distance to every prefix)', () => {
  it('agrees with a brute-force Levenshtein/Damerau check', () => {
    const alphabet = 'abc';
    const oracle = (q: string, w: string) => {
      for (let n = 0; n <= w.length; n++) if (osa(q, w.slice(0, n)) <= 1) return true;
      return false;
    };
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 7 }),
        fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 9 }),
        (q, w) => {
          expect(prefixWithinOneEdit(q, w)).toBe(oracle(q, w));
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}
