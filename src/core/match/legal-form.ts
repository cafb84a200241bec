/**
 * Legal forms as evidence. The normaliser reads them off a name as equivalence classes of the ISO 20275
 * list (`companyMatchName`: "N.V." = "Naamloze Vennootschap" = `nv`, "AG" = "Aktiengesellschaft",
 * "Limited" = "Ltd"); here two classes are compared, and a class is checked against a country. Two names
 * with different legal forms are, by default, different legal entities ("Acme Ltd" in London, "Acme GmbH"
 * in Munich); the matcher may still offer such a candidate at a lower confidence.
 */
import { formClassOutsideCountry } from '../../normalise/index.js';

/** Whether two legal-form class sequences say "different legal entity" (both present and different). */
export function formsConflict(a: string, b: string): boolean {
  if (a.length === 0 || b.length === 0 || a === b) return false;
  // "The Happy Owl Company" vs "The Happy Owl Company LLC", "The Little Oak Company Ltd" vs "… Ltd": a
  // leading "Company" may belong to the name; the legal form after it was left out, or is the same.
  if ((a === 'co' && b.startsWith('co+')) || (b === 'co' && a.startsWith('co+'))) return false;
  return withoutCompany(a) !== withoutCompany(b);
}

function withoutCompany(form: string): string {
  return form.startsWith('co+') ? form.slice(3) : form;
}

/** Whether a legal form (class sequence) cannot be used in `country` (false when unknown or generic). */
export function formOutsideCountry(form: string, country: string | null): boolean {
  if (form.length === 0 || country === null) return false;
  if (!form.includes('+')) return formClassOutsideCountry(form, country);
  for (const klass of form.split('+')) if (formClassOutsideCountry(klass, country)) return true;
  return false;
}
