/**
 * Legal forms as written after a company name, reduced to one spelling per form ("Limited" = "Ltd",
 * "L.L.C." = "LLC", "S.A." = "SA"). Two names with different legal forms are different legal entities
 * ("Acme Ltd" in London, "Acme GmbH" in Munich): the matcher never matches across them.
 */
const WORDS: ReadonlyMap<string, string> = new Map([
  ['incorporated', 'inc'],
  ['limited', 'ltd'],
  ['corporation', 'corp'],
  ['company', 'co'],
  ['private', 'pvt'],
  ['publ', ''],
]);

/**
 * The canonical legal form of a folded suffix ('' when none).
 * @example legalForm('l l c') // 'llc'; legalForm('private limited') // 'pvt ltd'
 */
export function legalForm(suffix: string): string {
  if (suffix.length === 0) return '';
  const out: string[] = [];
  let letters = '';
  for (const w of suffix.split(' ')) {
    if (w.length === 1) {
      letters += w; // "s a" → "sa", "l l c" → "llc"
      continue;
    }
    if (letters) {
      out.push(letters);
      letters = '';
    }
    const mapped = WORDS.get(w) ?? w;
    if (mapped) out.push(mapped);
  }
  if (letters) out.push(letters);
  return out.join(' ');
}

/** Whether two canonical legal forms say "different legal entity" (both present and different). */
export function formsConflict(a: string, b: string): boolean {
  if (a.length === 0 || b.length === 0 || a === b) return false;
  // "The Happy Owl Company" vs "The Happy Owl Company LLC", "The Little Oak Company Ltd" vs "… Ltd": a
  // leading "Company" may belong to the name; the legal form after it was left out, or is the same.
  if ((a === 'co' && b.startsWith('co ')) || (b === 'co' && a.startsWith('co '))) return false;
  return withoutCompany(a) !== withoutCompany(b);
}

function withoutCompany(form: string): string {
  return form.startsWith('co ') ? form.slice(3) : form;
}

/**
 * Countries where a legal form is used, for the forms that belong to a few jurisdictions only
 * ("GmbH", "Pvt Ltd", "K.K." …); generic forms ("Ltd", "Inc", "SA", "Co., Ltd." — also "Company Ltd"
 * in English) are absent.
 */
const FORM_COUNTRIES: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  (
    [
      ['llc', 'us'],
      ['gmbh', 'de at ch li'],
      ['gmbh and co kg', 'de at'],
      ['ug', 'de'],
      ['ag', 'de at ch li'],
      ['kg', 'de at'],
      ['sarl', 'fr be lu ch ma'],
      ['sas', 'fr'],
      ['bv', 'nl be'],
      ['nv', 'nl be'],
      ['pvt ltd', 'in pk np lk bd'],
      ['llp', 'in us gb'],
      ['pty ltd', 'au za'],
      ['pte ltd', 'sg'],
      ['kk', 'jp'],
      ['gk', 'jp'],
      ['ab', 'se fi'],
      ['srl', 'it ro'],
      ['spa', 'it'],
      ['sl', 'es'],
      ['ltda', 'br pt co cl'],
      ['me', 'br'],
      ['eireli', 'br'],
      ['dac', 'ie'],
      ['plc', 'gb ie'],
    ] as const
  ).map(([form, countries]) => [form, new Set(countries.split(' '))]),
);

/** Whether a legal form cannot be used in `country` (false when unknown or generic). */
export function formOutsideCountry(form: string, country: string | null): boolean {
  if (form.length === 0 || country === null) return false;
  const countries = FORM_COUNTRIES.get(form);
  return countries !== undefined && !countries.has(country);
}
