/**
 * Decisions on legal-form evidence: the same form is preferred, a name whose only
 * candidate differs by legal form alone matches at a lower confidence and says so, a qualifier word
 * ("Europe", "Holdings") still means another company, and subsidiaries match themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchBusinessRows } from '../src/core/match/index.js';
import type { Engine } from '../src/engine.js';
import { businessId as id, engineOf, namedBusinesses } from './support/snapshot.js';

const NAMES: [string, string][] = [
  ['Acme Inc.', 'US'],
  ['Brightwell N.V.', 'NL'],
  ['Brightwell Holdings Ltd', 'GB'],
  ['Siemens Aktiengesellschaft', 'DE'],
  ['Siemens Healthineers AG', 'DE'],
  ['Nordlicht GmbH', 'DE'],
  ['Nordlicht Inc.', 'US'],
  ['Toshiba Corporation', 'JP'],
];

let engine: Engine;
beforeAll(async () => {
  engine = await engineOf({ businesses: namedBusinesses(NAMES) });
});
afterAll(() => engine.close());

const match = (name: string) => {
  const [plain] = matchBusinessRows(engine, [{ name }]);
  const [explained] = matchBusinessRows(engine, [{ name }], { explain: true, alternatives: 2 });
  expect(explained!.business_id).toBe(plain!.business_id);
  return explained!;
};

describe('legal forms as evidence', () => {
  it('reads every spelling of a form as that form, at either end', () => {
    for (const n of [
      'Brightwell NV',
      'N.V. Brightwell',
      'Brightwell Naamloze Vennootschap',
      'Brightwell N.V., Utrecht, NL',
    ])
      expect(match(n).business_id, n).toBe(id(1));
    expect(match('Siemens AG').business_id).toBe(id(3));
    expect(match('Kabushiki Kaisha Toshiba').matched_on).toEqual(['name', 'legal_form_differs']);
  });

  it('prefers the candidate with the same legal form', () => {
    expect(match('Nordlicht G.m.b.H.').business_id).toBe(id(5));
    expect(match('Nordlicht Incorporated').business_id).toBe(id(6));
    expect(match('Nordlicht S.A.').business_id).toBeNull(); // two namesakes, neither with that form
  });

  it('matches the only candidate that differs by legal form alone, at a lower confidence, and says so', () => {
    const row = match('Brightwell Inc.');
    expect(row.business_id).toBe(id(1));
    expect(row.matched_on).toEqual(['name', 'legal_form_differs']);
    expect(row.match_confidence).toBeLessThan(0.9);
  });

  it('keeps qualifier words: another company, and subsidiaries match themselves', () => {
    expect(match('Acme Europe GmbH').business_id).toBeNull();
    expect(match('Acme UK Ltd').business_id).toBeNull();
    expect(match('Brightwell Holdings Ltd').business_id).toBe(id(2));
    expect(match('Siemens Healthineers AG').business_id).toBe(id(4));
  });
});

describe('another legal form on a name of common words', () => {
  // "Summit Networks" and six more names holding "summit" and "networks": with another legal form, a
  // second company of that name is as likely as a spelling of this one, so the row stays open by default.
  const COMMON: [string, string][] = [
    ['Summit Networks LLC', 'US'],
    ...[
      'Summit Foods',
      'Summit Labs',
      'Summit Partners',
      'Summit Dental',
      'Summit Realty',
      'Summit Media',
    ].map((n): [string, string] => [`${n} Inc.`, 'US']),
    ...[
      'Apex Networks',
      'Delta Networks',
      'Orion Networks',
      'Vertex Networks',
      'Nova Networks',
      'Atlas Networks',
    ].map((n): [string, string] => [`${n} Ltd`, 'GB']),
    ['Brightwell N.V.', 'NL'],
  ];
  let common: Engine;
  beforeAll(async () => {
    common = await engineOf({ businesses: namedBusinesses(COMMON) });
  });
  afterAll(() => common.close());

  it('leaves it open by default, offers it when min_confidence is lowered, and still matches a rare name', () => {
    const [plain] = matchBusinessRows(common, [{ name: 'Summit Networks GmbH' }], { explain: true });
    expect(plain!.business_id).toBeNull();
    const [low] = matchBusinessRows(common, [{ name: 'Summit Networks GmbH' }], { minConfidence: 0.5 });
    expect(low!.business_id).toBe(id(0));
    const [rare] = matchBusinessRows(common, [{ name: 'Brightwell GmbH' }], { explain: true });
    expect(rare!.business_id).toBe(id(COMMON.length - 1));
    expect(rare!.matched_on).toEqual(['name', 'legal_form_differs']);
  });
});
