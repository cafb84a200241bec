/**
 * Company names → comparable keys. Legal forms come off the end only (repeatedly), never the whole name;
 * the weak-word "core" is what fuzzy name matching weighs most.
 */
import { commaList, words } from './text.js';

/** Normalised company name: `key` for exact lookups, `tokens` for fuzzy scoring, `core` without weak words. */
export interface CompanyName {
  key: string;
  tokens: string[];
  core: string[];
}

/**
 * Legal-form suffixes as folded token sequences ("&" folds to "and", "." and "/" to spaces, so
 * "GmbH & Co. KG" is `gmbh and co kg`, "L.L.C." is `l l c`, "A/S" is `a s`).
 */
const LEGAL_FORMS: readonly string[] = commaList(`
  inc, incorporated, llc, l l c, ltd, limited, corp, corporation, co, company, and co, and company,
  plc, p l c, llp, l l p, lp, l p, lllp, pllc, pty, pty ltd, pte, pvt, private limited, bhd, sdn bhd,
  gmbh, ag, kg, kgaa, gmbh co kg, gmbh and co kg, and co kg, co kg, ag and co kg, se and co kg, se,
  sa, s a, sas, s a s, sarl, s a r l, spa, s p a, srl, s r l, sl, s l, sau, s a u, ltda, sa de cv, s a de c v, ltee,
  bv, b v, nv, n v, oy, oyj, ab, a s, as, asa, aps, sp z o o, spzoo, s r o, sro, kk, k k, kabushiki kaisha`);

/**
 * Legal forms the stored name key (`companyKey`, in every built database, the generator's one-name-per-
 * country rule and the committed demo snapshot) keeps as words, but matching strips like the others
 * ({@link companyMatchKey}): "Harborstack Maschinenbau UG" is the company "Harborstack Maschinenbau".
 */
const MATCH_ONLY_FORMS: readonly string[] = commaList(`ug, me, eireli, gk, g k, dac, ab publ`);

/** Weak words: dropped from `core` (never from `key`). */
const WEAK_WORDS: ReadonlySet<string> = new Set(
  commaList(`group, holdings, holding, international, global, worldwide, enterprises, solutions, services,
    technologies, systems, partners, industries`),
);

/** Unambiguous abbreviations, expanded to one spelling ("int'l" folds to "intl"). */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['intl', 'international'],
  ['mfg', 'manufacturing'],
  ['svcs', 'services'],
  ['assoc', 'associates'],
  ['bros', 'brothers'],
  ['natl', 'national'],
]);

type FormsByLastToken = ReadonlyMap<string, readonly (readonly string[])[]>;

/** Last token → the legal forms that end with it, longest first. */
function formsByLastToken(forms: readonly string[]): FormsByLastToken {
  const byLast = new Map<string, string[][]>();
  for (const form of forms) {
    const parts = form.split(' ');
    const last = parts[parts.length - 1] as string;
    const list = byLast.get(last) ?? [];
    list.push(parts);
    byLast.set(last, list);
  }
  for (const list of byLast.values()) list.sort((a, b) => b.length - a.length);
  return byLast;
}

const FORMS_BY_LAST_TOKEN = formsByLastToken(LEGAL_FORMS);
const MATCH_FORMS_BY_LAST_TOKEN = formsByLastToken([...LEGAL_FORMS, ...MATCH_ONLY_FORMS]);

/** How many trailing tokens form a legal form that may be stripped (0 when none, or it is the whole name). */
function legalFormLength(
  tokens: readonly string[],
  start: number,
  end: number,
  byLast: FormsByLastToken = FORMS_BY_LAST_TOKEN,
): number {
  if (end - start < 2) return 0;
  const forms = byLast.get(tokens[end - 1] as string);
  if (forms === undefined) return 0;
  for (const form of forms) {
    const n = form.length;
    if (n >= end - start) continue; // never strip the whole name
    let ok = true;
    for (let j = 0; j < n - 1; j++) {
      if (tokens[end - n + j] !== form[j]) {
        ok = false;
        break;
      }
    }
    if (ok) return n;
  }
  return 0;
}

function companyTokens(name: string, byLast: FormsByLastToken = FORMS_BY_LAST_TOKEN): string[] {
  const all = words(name);
  let start = 0;
  while (all.length - start > 1 && all[start] === 'the') start++;
  let end = all.length;
  for (let n = legalFormLength(all, start, end, byLast); n > 0; n = legalFormLength(all, start, end, byLast))
    end -= n;
  const tokens = start === 0 && end === all.length ? all : all.slice(start, end);
  for (let i = 0; i < tokens.length; i++) {
    const expanded = ABBREVIATIONS.get(tokens[i] as string);
    if (expanded !== undefined) tokens[i] = expanded;
  }
  return tokens;
}

/**
 * Normalises a company name: folded words, leading "the" and trailing legal forms removed, abbreviations
 * expanded; `core` drops weak words such as "group" or "holdings" but is never empty.
 * @example normaliseCompanyName('Acme Holdings Ltd.') // { key: 'acme holdings', tokens: ['acme', 'holdings'], core: ['acme'] }
 */
export function normaliseCompanyName(name: string): CompanyName {
  const tokens = companyTokens(name);
  const core = tokens.filter((t) => !WEAK_WORDS.has(t));
  return { key: tokens.join(' '), tokens, core: core.length > 0 ? core : tokens.slice() };
}

/**
 * The `key` of {@link normaliseCompanyName} without building `core`.
 * @example companyKey('The Coca-Cola Company') // 'coca cola'
 */
export function companyKey(name: string): string {
  return companyTokens(name).join(' ');
}

/**
 * The key names are matched on: {@link companyKey} with every legal form stripped, including those the
 * stored key keeps for compatibility (UG, ME, EIRELI, G.K., DAC, AB (publ)).
 * @example companyMatchKey('Harborstack Maschinenbau UG') // 'harborstack maschinenbau'
 */
export function companyMatchKey(name: string): string {
  return companyTokens(name, MATCH_FORMS_BY_LAST_TOKEN).join(' ');
}

const MATCH_ONLY_LAST_TOKENS: ReadonlySet<string> = new Set(
  MATCH_ONLY_FORMS.map((f) => f.slice(f.lastIndexOf(' ') + 1)),
);

/**
 * {@link companyMatchKey} from a stored `companyKey`: the same string unless the stored key ends with a
 * word that may be a match-only legal form (then the name is normalised again).
 */
export function companyMatchKeyOf(name: string, storedKey: string): string {
  const last = storedKey.slice(storedKey.lastIndexOf(' ') + 1);
  return MATCH_ONLY_LAST_TOKENS.has(last) ? companyMatchKey(name) : storedKey;
}
