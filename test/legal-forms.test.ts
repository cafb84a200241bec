/**
 * The legal-form table is generated from the ISO 20275 (ELF) list: the committed file must be exactly
 * what the script makes of the CSV, and the normaliser must read real names with it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { legalFormTable, renderLegalForms } from '../scripts/legal-forms-lib.js';
import { formsConflict, formOutsideCountry } from '../src/core/match/legal-form.js';
import { companyKey, companyMatchName } from '../src/normalise/index.js';
import { sharedFile } from './support/shared-data.js';

const CSV = sharedFile('data', 'elf-code-list-v1.5.csv', 'the legal-form table against the ELF CSV');
const GENERATED = fileURLToPath(new URL('../src/normalise/legal-forms.generated.ts', import.meta.url));

describe('legal forms from ISO 20275', () => {
  it.skipIf(CSV === null)('the committed table is what the script generates from the ELF CSV', () => {
    const text = renderLegalForms(legalFormTable(readFileSync(CSV as string, 'utf8')));
    expect(readFileSync(GENERATED, 'utf8')).toBe(text);
  });

  it('gives every spelling of a form one class, at either end of the name', () => {
    const form = (n: string) => companyMatchName(n).form;
    expect(form('Brightwell N.V.')).toBe('nv');
    expect(form('Brightwell NV')).toBe('nv');
    expect(form('Brightwell Naamloze Vennootschap')).toBe('nv');
    expect(form('N.V. Brightwell')).toBe('nv');
    expect(form('Siemens Aktiengesellschaft')).toBe('ag');
    expect(form('Siemens AG')).toBe('ag');
    expect(form('Kabushiki Kaisha Toshiba')).toBe('kk');
    expect(form('Acme Limited')).toBe('ltd');
    expect(form('Acme Incorporated')).toBe('inc');
    expect(form('Müller GmbH & Co. KG')).toBe('gmbh and co kg');
    expect(form('Acme Co., Ltd.')).toBe('co+ltd');
    expect(form('Acme Sp. z o.o.')).toBe('spzoo');
  });

  it('gives the stored key (filters, autocomplete) the same forms, keeping the few it always kept', () => {
    expect(companyKey('Brightwell Naamloze Vennootschap')).toBe(companyKey('brightwell nv'));
    expect(companyKey('Brightwell N.V.')).toBe('brightwell');
    expect(companyKey('Siemens Aktiengesellschaft')).toBe(companyKey('Siemens AG'));
    expect(companyKey('Toyota K.K.')).toBe('toyota');
    expect(companyKey('Harborstack Maschinenbau UG')).toBe('harborstack maschinenbau ug');
  });

  it('compares classes and jurisdictions', () => {
    expect(formsConflict('nv', 'inc')).toBe(true);
    expect(formsConflict('nv', 'nv')).toBe(false);
    expect(formsConflict('co', 'co+ltd')).toBe(false);
    expect(formOutsideCountry('gmbh', 'us')).toBe(true);
    expect(formOutsideCountry('gmbh', 'de')).toBe(false);
    expect(formOutsideCountry('ltd', 'us')).toBe(false); // used in many jurisdictions: no evidence
  });
});

describe('real-name normalisation', () => {
  const key = (n: string) => companyMatchName(n).key;
  it('reads off locations, markers, notes and second names', () => {
    expect(key('Brightwell N.V., Utrecht, NL')).toBe('brightwell');
    expect(key('Brightwell N.V., te Utrecht')).toBe('brightwell');
    expect(key('Brightwell N.V. te Utrecht')).toBe('brightwell');
    expect(key('Acme Inc. in Delaware')).toBe('acme');
    expect(key('Siemens AG, München, Deutschland')).toBe('siemens');
    expect(key('* Brightwell')).toBe('brightwell');
    expect(key('Acme Ltd (in liquidation)')).toBe('acme');
    expect(key('Acme Ltd t/a Brightwell')).toBe('acme');
    expect(key('Société dite Brightwell')).toBe('brightwell');
  });

  it('joins initials, unifies "and" and country words, drops possessives', () => {
    expect(key('B T W N.V.')).toBe('btw');
    expect(key('B.T.W. N.V.')).toBe(key('BTW NV'));
    expect(key('Dupont et Fils')).toBe(key('Dupont & Fils'));
    expect(key('Müller und Söhne')).toBe(key('Muller and Sohne'));
    expect(key('Brightwell Holland')).toBe(key('Brightwell Netherlands'));
    expect(key('Brightwell Europa')).toBe(key('Brightwell Europe'));
    expect(key("Macy's")).toBe('macy');
    expect(companyMatchName('Brightwell N').truncated).toBe(true);
  });

  it('keeps qualifier words: "Acme Europe GmbH" is not "Acme"', () => {
    expect(key('Acme Europe GmbH')).toBe('acme europe');
    expect(key('Acme UK Ltd')).toBe('acme unitedkingdom');
    expect(key('Bank of America Corporation')).toBe('bank of unitedstates');
    expect(key('Fund II')).toBe('fund ii');
    expect(key('Evergreen 9')).toBe('evergreen 9');
  });
});
