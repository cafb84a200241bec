/**
 * The low-confidence regime of the business matcher: as `min_confidence` falls, a row gets its best
 * candidate whenever a name shares a distinctive word with it or is close in spelling, including names
 * written with letters spaced, words run together, long words cut, a subsidiary's legal form after the
 * parent's name. The snapshot is every US listed-company name (`shared/data/real`) as distractors, plus
 * the records the examples name.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listedNames, realDataDir } from '../bench/match/real-data.js';
import { matchBusinessRows } from '../src/core/match/index.js';
import { companyMatchKey } from '../src/normalise/index.js';
import type { Engine } from '../src/engine.js';
import { engineOf } from './support/snapshot.js';

const dir = realDataDir();
let engine: Engine;
let names: string[] = [];

/** The records of the examples, written the way a register has them. */
const RECORDS = [
  'DSM N.V.',
  'Gist-Brocades N.V.',
  'Hunter Douglas N.V.',
  'Koninklijke Philips Electronics N.V.',
  'Brightwell Technologies, Inc.',
  'Stavanger Offshore Drilling ASA',
];
const hex = (i: number) => i.toString(16).padStart(32, '0');
const idOf = (name: string) => hex(names.indexOf(name) + 1);

beforeAll(async () => {
  if (dir === null) return;
  const keys = new Set(RECORDS.map((n) => companyMatchKey(n)));
  names = [...RECORDS, ...listedNames(dir).filter((n) => !keys.has(companyMatchKey(n)))];
  engine = await engineOf({
    businesses: names.map((name, i) => ({
      business_id: hex(i + 1),
      name,
      country_code: 'US',
      number_of_employees_range: '51-200',
      is_public_company: true,
    })),
  });
}, 60_000);
afterAll(() => engine?.close());

describe.skipIf(dir === null)('min_confidence near 0', () => {
  it('reads spaced, run-together, cut and subsidiary forms of a name as that name, among listed names', () => {
    const cases: [string, string][] = [
      ['D S M N. V.', 'DSM N.V.'],
      ['GISTBROCADES', 'Gist-Brocades N.V.'],
      ['HUNTERDOUGLASINDUSTRIESB.V.', 'Hunter Douglas N.V.'],
      ['KONINKL PHILIPS ELECTRONICS', 'Koninklijke Philips Electronics N.V.'],
      ['Brightwell Technologies, Inc. Netherlands B.V.', 'Brightwell Technologies, Inc.'],
      ['Stavangre Ofshore Driling', 'Stavanger Offshore Drilling ASA'],
    ];
    const rows = cases.map(([name]) => ({ name }));
    const low = matchBusinessRows(engine, rows, { minConfidence: 0.01, explain: true });
    expect(low.map((r) => r.business_id)).toEqual(cases.map(([, truth]) => idOf(truth)));
    for (const r of low) expect(r.match_confidence).toBeGreaterThanOrEqual(0.01);
    // By default each row is either left open or given the right record: never another one.
    const byDefault = matchBusinessRows(engine, rows);
    byDefault.forEach((r, i) => expect([null, idOf(cases[i]![1])]).toContain(r.business_id));
  });

  it('gives a candidate to every row that shares a distinctive word with a name', () => {
    // Distinctive: a word of 6+ letters that one to three listed names hold.
    const df = new Map<string, number>();
    for (const n of names)
      for (const w of new Set(companyMatchKey(n).split(' '))) df.set(w, (df.get(w) ?? 0) + 1);
    const distinctive = [...df].filter(([w, n]) => n <= 3 && /^[a-z]{6,}$/.test(w)).map(([w]) => w);
    expect(distinctive.length).toBeGreaterThan(500);
    fc.assert(
      fc.property(
        fc.constantFrom(...distinctive),
        fc.constantFrom('Zqxv', 'Holdings', 'Research Labs', 'Wrzlbrmft GmbH', ''),
        fc.boolean(),
        (word, other, upper) => {
          const name = `${word[0]!.toUpperCase()}${word.slice(1)} ${other}`.trim();
          const [r] = matchBusinessRows(engine, [{ name: upper ? name.toUpperCase() : name }], {
            minConfidence: 0.001,
          });
          expect(r!.business_id).not.toBeNull();
          // The candidate holds the word (or a name is spelled the same way joined or apart).
          const got = names[parseInt(r!.business_id!, 16) - 1] as string;
          expect(companyMatchKey(got).replace(/ /g, '')).toContain(word);
        },
      ),
      { numRuns: 60, seed: 5 },
    );
  });

  it('decides every row alike in plain, explained and alternatives runs', () => {
    const rows = [
      'D S M N. V.',
      'GISTBROCADES',
      'KONINKL PHILIPS',
      'Hunter Douglas Industries B.V.',
      'Apple Computer Netherlands B.V.',
      'Zqxv Wrzlbrmft',
      'MICROSOFTCORP',
      'Intl Business Machines',
    ].map((name) => ({ name }));
    for (const minConfidence of [undefined, 0.01, 0.3, 0.8]) {
      const plain = matchBusinessRows(engine, rows, { minConfidence });
      const explained = matchBusinessRows(engine, rows, { minConfidence, explain: true, alternatives: 3 });
      expect(explained.map((r) => r.business_id)).toEqual(plain.map((r) => r.business_id));
    }
  });
});
