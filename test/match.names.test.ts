/**
 * Fuzzy business-name decisions on a small hand-made snapshot: legal forms as written, words only one
 * name has, words that exist are not typos, two typos, two-edit candidates, word order as a tie-break.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchBusinessRows } from '../src/core/match/index.js';
import type { Engine } from '../src/engine.js';
import { companyKey, companyMatchKey } from '../src/normalise/index.js';
import { businessId as id, engineOf, namedBusinesses } from './support/snapshot.js';

const NAMES: [name: string, country: string][] = [
  ['Harborstack Maschinenbau GmbH', 'DE'],
  ['The Little Oak Company Ltd', 'GB'],
  ['Redwood Systems Global LLC', 'US'],
  ['Solarscape Logistik GmbH', 'DE'],
  ['Polarscape Media GmbH', 'DE'],
  ['Greatwise Risk, Inc.', 'US'],
  ['Gustafsson & Åberg AB', 'SE'],
  ['Åberg & Gustafsson AB', 'SE'],
  ['Quantumforge', 'US'],
  ['Pinnacle LLC', 'US'],
  ['Lumina Engenharia ME', 'BR'],
  ['Catalyst Foods Ltd', 'GB'],
  ['Catalyst Foods', 'US'],
  ['The Crimson Anchor Works S.L.', 'ES'],
  ['Barcelona Tecnologías', 'ES'],
  ['Evergreen 9', 'GB'],
  ['Morris & Smith', 'US'], // 16
  ['Hughes, Morris & Smith Ltd', 'GB'], // 17
  ['The Silver Spoon Kitchen GmbH', 'DE'], // 18
  ['San Francisco Insurance Agency Inc.', 'US'], // 19
  ['ABC Media Group Holdings LLC', 'US'], // 20
  ['Wolf & Köhler AG', 'DE'], // 21
  ['Köhler & Wolf AG', 'DE'], // 22
  ['San Diego Data LLC', 'US'], // 23: "san" is a common word, "francisco" a rare one
  ['San Jose Contracting LLC', 'US'], // 24
  ['Nova Media Group Holdings', 'US'], // 25
];

let engine: Engine;
beforeAll(async () => {
  engine = await engineOf({ businesses: namedBusinesses(NAMES) });
});
afterAll(() => engine.close());

/** The id a batch gives (decision only), checked against the run with explanations (full candidates). */
const match = (name: string) => {
  const id = matchBusinessRows(engine, [{ name }])[0]!.business_id;
  expect(matchBusinessRows(engine, [{ name }], { explain: true, alternatives: 3 })[0]!.business_id).toBe(id);
  return id;
};

describe('business name decisions', () => {
  it('strips the legal forms UG, ME, G.K., DAC and AB (publ) from match keys (the stored key keeps them)', () => {
    expect(companyMatchKey('Harborstack Maschinenbau UG')).toBe('harborstack maschinenbau');
    expect(companyMatchKey('Lumina Engenharia ME')).toBe('lumina engenharia');
    expect(companyMatchKey('Sasaki Partners G.K.')).toBe('sasaki partners');
    expect(companyMatchKey('Keystone Insurance DAC')).toBe('keystone insurance');
    expect(companyMatchKey('Nordvik AB (publ)')).toBe('nordvik');
    expect(companyMatchKey('Acme Robotics, Inc.')).toBe(companyKey('Acme Robotics, Inc.'));
    expect(companyKey('Harborstack Maschinenbau UG')).toBe('harborstack maschinenbau ug');
  });

  it('keeps legal forms apart: a UG is the GmbH of the same name only when nothing better exists, and says so', () => {
    expect(match('Harborstack-Maschinenbau')).toBe(id(0));
    expect(match('Harborstack Maschinenbau UG')).toBe(id(0));
    const [row] = matchBusinessRows(engine, [{ name: 'Harborstack Maschinenbau UG' }], { explain: true });
    expect(row!.matched_on).toContain('legal_form_differs');
    expect(
      matchBusinessRows(engine, [{ name: 'Harborstack Maschinenbau UG' }], { minConfidence: 0.85 })[0]!
        .business_id,
    ).toBeNull();
    // "Catalyst Foods Ltd" (GB) and "Catalyst Foods" (US): the form written picks the one with that form.
    expect(match('Catalyst Foods Ltd')).toBe(id(11));
    expect(match('Lumina-Engenharia')).toBe(id(10));
  });

  it('reads "Company Ltd" as a name ending in Company, not as the Japanese Co., Ltd.', () => {
    expect(match('Little Oak Company Ltd')).toBe(id(1));
  });

  it('abstains when one name has a word the other lacks, weak or not; stop words aside', () => {
    expect(match('Redwood Systems, LLC')).toBeNull();
    expect(match('Pinnacle 14 LLC')).toBeNull();
    expect(match('Crimson The Anchor Works S.L.')).toBe(id(13));
    // "9" is an indexed word ("Evergreen 9"): taken as written, not as a spacing difference.
    expect(match('Barcelona 9 Tecnologías S.L.')).toBeNull();
  });

  it('takes a word that some indexed name has as written, not as a typo', () => {
    expect(match('Polarscape Logistik')).toBeNull();
    expect(match('Solarscpae Logistik')).toBe(id(3));
  });

  it('matches a name with two typos when nothing else comes close', () => {
    expect(match('Greatwisl iRsk, Inc.')).toBe(id(5));
    // Two edits in one long word: found through the two-deletion neighbourhood.
    expect(match('Qantumforeg')).toBe(id(8));
    // Namesakes of the best are told apart as for an exact name: the legal form written.
    expect(match('Catalyqst Fods Ltd')).toBe(id(11));
    expect(match('Catalyqst Fods')).toBeNull();
  });

  it('matches indexed words in another order, and nothing when a word lines up with no indexed word', () => {
    expect(match('Maschinenbau Harborstack')).toBe(id(0));
    expect(match('Logistik Solarscape GmbH')).toBe(id(3));
    expect(match('Solarscape Logistik XQ')).toBeNull();
    expect(match('Quantumforge Zqwv')).toBeNull();
  });

  it('prefers the words in the order written when the scores tie', () => {
    expect(match('Gutsafsson & Åberg AB')).toBe(id(6));
    expect(match('Åberg & Gustafson AB')).toBe(id(7));
    // Where the "&" stands says nothing about which partner comes first.
    expect(match('& Wolf Köhler AG')).toBe(id(21));
    expect(match('Wolf Köhler & AG')).toBe(id(21));
    expect(match('Köhler Wolf & AG')).toBe(id(22));
  });

  it('pairs short words left alone one edit apart once the other words line up, never the rarest', () => {
    expect(match('Saw Francisco Insurance Agncy Inc.')).toBe(id(19));
    // A mistyped leading article: keys drop "the".
    expect(match('Th Silver Spoon Kitchen GmbH')).toBe(id(18));
    expect(match('Txhe Silver Spoon Kitchen GmbH')).toBe(id(18));
    // The rarest word is what tells a name from its neighbours: one edit there is another name.
    expect(match('ABD Media Group Holdings LLC')).toBeNull();
  });

  it('does not count a rival with a word the query lacks whose other words agree no better', () => {
    // "Hughes, Morris & Smith" has the same two words and one more: "Morris & Smith" reads the row whole.
    expect(match('Moris & Smity')).toBe(id(16));
    expect(match('Hughes Moris & Smity Ltd')).toBe(id(17));
  });
});
