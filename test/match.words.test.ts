/**
 * A word more or less, decided on term-frequency evidence (`company-words.ts`): among
 * thousands of real listed-company names, a name that shares a rare word with exactly one business and
 * differs by a word only one of them has matches it; a qualifier (place, country, scope, series number)
 * still means another company, a family of names sharing the words means no single answer, and
 * initials stand for the words they abbreviate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listedNames, realDataDir } from '../bench/match/real-data.js';
import { matchBusinessRows } from '../src/core/match/index.js';
import type { Engine } from '../src/engine.js';
import { sharedFile } from './support/shared-data.js';
import { businessId as id, engineOf, namedBusinesses } from './support/snapshot.js';

const dir =
  sharedFile('data', 'real/nasdaq-listed.csv', 'a word more or less, among real listed names') === null
    ? null
    : realDataDir();
/** The names the tests are about (ids 0…), then real listed names as distractors. */
const NAMES: [string, string][] = [
  ['Brightwell N.V.', 'NL'], // 0
  ['Zentrovia Labs Inc.', 'US'], // 1
  ['Zentrovia Health Inc.', 'US'], // 2
  ['Zentrovia Energy Inc.', 'US'], // 3
  ['Quillfeather Marine Systems Corporation', 'US'], // 4
  ['Harwick Acquisition Corp. II', 'US'], // 5
  ['Ostervane Technology Solutions, Inc.', 'US'], // 6
  ['Marrowgate Capital Holdings, Inc.', 'US'], // 7
  // An organisation and its sites, each its own record (as agencies' files list them).
  ['Quenby Park Community Center', 'US'], // 8
  ['Quenby Park Community Center - Ainslie', 'US'], // 9
  ['Dorrance League - Morse', 'US'], // 10
  ['Dorrance League - Eastlake', 'US'], // 11
];

let engine: Engine;
beforeAll(async () => {
  if (dir === null) return;
  const distractors = listedNames(dir)
    .slice(0, 3000)
    .map((n) => [n, 'US'] as [string, string]);
  engine = await engineOf({ businesses: namedBusinesses([...NAMES, ...distractors]) });
}, 60_000);
afterAll(() => engine?.close());

const match = (name: string) => {
  const [plain] = matchBusinessRows(engine, [{ name }]);
  const [explained] = matchBusinessRows(engine, [{ name }], { explain: true, alternatives: 2 });
  expect(explained!.business_id, name).toBe(plain!.business_id);
  return explained!;
};

describe.skipIf(dir === null)('a word more or less, on term-frequency evidence', () => {
  it('matches a name with a word added or dropped when the shared words are rare enough', () => {
    for (const [n, want] of [
      ['Ostervane Technology Inc.', 6],
      ['Ostervane Solutions Inc.', 6],
      ['Marrowgate Capital Inc.', 7],
      ['Quillfeather Marine Corp', 4],
    ] as const) {
      const row = match(n);
      expect(row.business_id, n).toBe(id(want));
      expect(row.matched_on).toEqual(['name_fuzzy']);
      expect(row.match_confidence).toBeGreaterThanOrEqual(0.8);
    }
  });

  it('offers one shared word with a word more or less as a guess below the default', () => {
    for (const n of ['Brightwell Electronics N.V.', 'Koninklijke Brightwell N.V.', 'Brightwell Group N.V.']) {
      expect(match(n).business_id, n).toBeNull(); // not by default: one word is not enough
      const [row] = matchBusinessRows(engine, [{ name: n }], { minConfidence: 0.3, explain: true });
      expect(row!.business_id, n).toBe(id(0));
      expect(row!.match_confidence, n).toBeLessThan(0.8);
    }
  });

  it('keeps qualifiers: a place, a country, a scope or a series number means another company', () => {
    for (const n of [
      'Brightwell Europe GmbH',
      'Brightwell UK Ltd',
      'Brightwell North America Inc.',
      'Brightwell Global N.V.',
      'Brightwell Amsterdam N.V.',
      'Harwick Acquisition Corp.',
      'Harwick Acquisition Corp. III',
    ])
      expect(match(n).business_id, n).toBeNull();
  });

  it('leaves a member of a family of names alone: the parent or another sibling is not it', () => {
    expect(match('Zentrovia Labs Inc.').business_id).toBe(id(1)); // present: itself
    expect(match('Zentrovia Inc.').business_id).toBeNull(); // the parent, absent
    expect(match('Zentrovia Robotics Inc.').business_id).toBeNull(); // another sibling, absent
    const [guess] = matchBusinessRows(engine, [{ name: 'Zentrovia Inc.' }], { minConfidence: 0.3 });
    expect(guess!.business_id).toBeNull();
  });

  it('reads the words after an organisation that has sites of its own as another site, and its stem as none of them', () => {
    expect(match('Quenby Park Community Center - Ainslie').business_id).toBe(id(9)); // itself
    expect(match('Quenby Park Community Center Ainslie Campus').business_id).toBe(id(9));
    // A site the snapshot does not hold is not the organisation whose other site it does hold.
    expect(match('Quenby Park Community Center - Kimball').business_id).toBeNull();
    expect(match('Quenby Park Community Center Kimball').business_id).toBeNull();
    // The organisation's name alone, when only its sites are records: neither site.
    expect(match('Dorrance League').business_id).toBeNull();
    expect(match('Dorrance League Morse').business_id).toBe(id(10));
  });

  it('reads initials as the words they stand for', () => {
    for (const n of ['QMS Corp', 'Q.M.S. Corporation', 'Q M S Corp']) {
      const [row] = matchBusinessRows(engine, [{ name: n }], { minConfidence: 0.3, explain: true });
      expect(row!.business_id, n).toBe(id(4));
    }
  });

  it('trades: a caller who asks for surer answers than the evidence gives gets none', () => {
    const [row] = matchBusinessRows(engine, [{ name: 'Marrowgate Capital Inc.' }], {
      minConfidence: 0.99,
      alternatives: 1,
    });
    expect(row!.business_id).toBeNull();
    expect(row!.alternatives?.[0]?.id).toBe(id(7));
  });
});
