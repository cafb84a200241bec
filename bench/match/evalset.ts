/**
 * Labelled evaluation sets: records drawn from a snapshot, perturbed by kind, with the expected id
 * (null for the rows drawn from entities held out of the database).
 */
import type { BusinessRowInput, ProspectRowInput } from '../../src/core/match/index.js';
import {
  abbreviate,
  caseChange,
  domainAsUrl,
  emailCase,
  gmailVariant,
  middleName,
  nickname,
  otherSubdomain,
  phoneFormat,
  profileVariant,
  Prng,
  punctuation,
  suffixChange,
  theChange,
  typos,
  wordOrder,
} from './perturb.js';
import type { BusinessDoc, HeldOutSnapshot, ProspectDoc } from './snapshot.js';
import { formOutsideCountry, formsConflict } from '../../src/core/match/legal-form.js';
import type { BusinessMatchIndex } from '../../src/indexes/match/businesses.js';
import { companyMatchKey, companyMatchName } from '../../src/normalise/index.js';

export interface EvalRow<Input> {
  kind: string;
  input: Input;
  /** Expected id; null when the entity is not in the database. */
  truth: string | null;
  /** Id of the record the row was drawn from. */
  source: string;
  /** The label as drawn: `source`, or null when the record was held out of the database. */
  original: string | null;
}

export const BUSINESS_KINDS = [
  'name_exact',
  'suffix',
  'case',
  'punctuation',
  'the',
  'typo1',
  'typo2',
  'abbreviation',
  'word_order',
  'name_domain',
  'domain_url',
  'domain_www',
  'subdomain',
  'domain_only',
  'linkedin',
] as const;

export const PROSPECT_KINDS = [
  'email',
  'email_case',
  'email_gmail',
  'phone',
  'linkedin',
  'name_company',
  'name_business_id',
  'nickname',
  'middle_name',
  'name_typo',
  'company_variant',
] as const;

function domainOf(b: BusinessDoc): string | null {
  if (b.domain) return b.domain;
  if (!b.website) return null;
  return b.website
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '')
    .replace(/^www\./, '');
}

/** One perturbed row of `kind` for business `b`, or null when the kind does not apply to it. */
export function businessRow(rng: Prng, b: BusinessDoc, kind: string): BusinessRowInput | null {
  const name = b.name;
  const domain = domainOf(b);
  switch (kind) {
    case 'name_exact':
      return { name };
    case 'suffix':
      return { name: suffixChange(rng, name, b.country_code) };
    case 'case':
      return { name: caseChange(rng, name) };
    case 'punctuation':
      return { name: punctuation(rng, name) };
    case 'the':
      return { name: theChange(name) };
    case 'typo1':
      return { name: typos(rng, name, 1) };
    case 'typo2':
      return { name: typos(rng, name, 2) };
    case 'abbreviation': {
      const n = abbreviate(rng, name);
      return n === null ? null : { name: n };
    }
    case 'word_order': {
      const n = wordOrder(rng, name);
      return n === null ? null : { name: n };
    }
    case 'name_domain':
      return domain === null ? null : { name: typos(rng, name, 1), domain };
    case 'domain_url':
      return domain === null
        ? null
        : rng.chance(0.5)
          ? { name, url: domainAsUrl(rng, domain) }
          : { domain: domainAsUrl(rng, domain) };
    case 'domain_www':
      return domain === null ? null : { name, domain: `www.${domain}` };
    case 'subdomain':
      return domain === null ? null : { name: caseChange(rng, name), domain: otherSubdomain(rng, domain) };
    case 'domain_only':
      return domain === null ? null : { domain };
    case 'linkedin':
      return b.linkedin_profile ? { linkedin_url: profileVariant(rng, b.linkedin_profile) } : null;
    default:
      return null;
  }
}

function fullNameOf(p: ProspectDoc): string {
  return p.full_name || [p.first_name, p.last_name].filter(Boolean).join(' ');
}

/** One perturbed row of `kind` for prospect `p` (employed by `b`), or null when the kind does not apply. */
export function prospectRow(
  rng: Prng,
  p: ProspectDoc,
  b: BusinessDoc | undefined,
  kind: string,
): ProspectRowInput | null {
  const full = fullNameOf(p);
  const emails = (p.emails ?? [])
    .map((e) => e.address)
    .filter((a) => !/^(info|sales|support|contact|hello)@/i.test(a));
  const company = b?.name;
  switch (kind) {
    case 'email':
      return emails.length ? { email: rng.pick(emails) } : null;
    case 'email_case':
      return emails.length ? { email: emailCase(rng, rng.pick(emails)) } : null;
    case 'email_gmail': {
      const g = emails.map((e) => gmailVariant(rng, e)).find((e) => e !== null);
      return g ? { email: g } : null;
    }
    case 'phone': {
      const phones = p.phone_numbers ?? [];
      return phones.length ? { phone_number: phoneFormat(rng, rng.pick(phones).phone_number) } : null;
    }
    case 'linkedin':
      return p.linkedin ? { linkedin: profileVariant(rng, p.linkedin) } : null;
    case 'name_company':
      return company ? { full_name: full, company_name: company } : null;
    case 'name_business_id':
      return b ? { full_name: caseChange(rng, full), business_id: b.business_id } : null;
    case 'nickname': {
      const n = nickname(rng, full);
      return n && company ? { full_name: n, company_name: company } : null;
    }
    case 'middle_name':
      return company ? { full_name: middleName(rng, full), company_name: company } : null;
    case 'name_typo':
      return company ? { full_name: typos(rng, full, 1), company_name: company } : null;
    case 'company_variant':
      return company
        ? {
            full_name: full,
            company_name: rng.pick([suffixChange, caseChange, punctuation])(rng, company, b?.country_code),
          }
        : null;
    default:
      return null;
  }
}

/**
 * `perKind` rows of each kind for entities in the database, plus rows for held-out entities
 * (`unseenShare` of the total, kind `unseen:<kind>`), shuffled deterministically.
 */
function build<Doc, Input>(
  rng: Prng,
  docs: readonly Doc[],
  isHeld: (d: Doc) => boolean,
  kinds: readonly string[],
  perKind: number,
  unseenShare: number,
  rowOf: (d: Doc, kind: string) => Input | null,
  idOf: (d: Doc) => string,
): EvalRow<Input>[] {
  const present = docs.filter((d) => !isHeld(d));
  const held = docs.filter(isHeld);
  const rows: EvalRow<Input>[] = [];
  for (const kind of kinds) {
    let made = 0;
    for (let tries = 0; made < perKind && tries < perKind * 50; tries++) {
      const d = rng.pick(present);
      const input = rowOf(d, kind);
      if (input === null) continue;
      rows.push({ kind, input, truth: idOf(d), source: idOf(d), original: idOf(d) });
      made++;
    }
  }
  const unseen = Math.round((rows.length * unseenShare) / (1 - unseenShare));
  for (let made = 0, tries = 0; made < unseen && held.length > 0 && tries < unseen * 50; tries++) {
    const kind = rng.pick(kinds);
    const d = rng.pick(held);
    const input = rowOf(d, kind);
    if (input === null) continue;
    rows.push({ kind: `unseen:${kind}`, input, truth: null, source: idOf(d), original: null });
    made++;
  }
  for (let i = rows.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [rows[i], rows[j]] = [rows[j] as EvalRow<Input>, rows[i] as EvalRow<Input>];
  }
  return rows;
}

/**
 * `perKind` rows of each business kind plus 10% rows for held-out businesses. With the database's match
 * index, held-out rows that no matcher could tell from a business in the database are relabelled
 * ({@link labelByAttributes}).
 */
export function businessEvalSet(
  snapshot: HeldOutSnapshot,
  perKind: number,
  seed = 1,
  present?: BusinessMatchIndex,
): EvalRow<BusinessRowInput>[] {
  const rng = new Prng(seed);
  const rows = build(
    rng,
    snapshot.businesses,
    (b) => snapshot.heldBusinesses.has(b.business_id),
    BUSINESS_KINDS,
    perKind,
    0.1,
    (b, kind) => businessRow(rng, b, kind),
    (b) => b.business_id,
  );
  return present === undefined ? rows : labelByAttributes(rows, snapshot, present);
}

/** The canonical legal form a name is written with ('' when none). */
function formOf(name: string): string {
  return companyMatchName(name).form;
}

/** Whether a name written with `form` can name business `pos` (forms do not conflict; country fits). */
function formFits(form: string, present: BusinessMatchIndex, pos: number): boolean {
  const other = formOf(present.names[pos] as string);
  return !formsConflict(form, other) && !formOutsideCountry(form, present.countries[pos] ?? null);
}

/**
 * Businesses in the database that a name written this way can name: the same normalised name, and a
 * legal form that does not contradict the one written; a name written with a form names those recorded
 * with that same form when there are any (they agree on one more attribute than those recorded without
 * one, whose form is unknown).
 */
function sameName(name: string | undefined, present: BusinessMatchIndex): number[] {
  if (name === undefined) return [];
  const key = companyMatchKey(name);
  if (key.length === 0) return [];
  const form = formOf(name);
  const fits = present.byNameKey.get(key).filter((pos) => formFits(form, present, pos));
  if (form.length === 0) return fits;
  const same = fits.filter((pos) => formOf(present.names[pos] as string) === form);
  return same.length > 0 ? same : fits;
}

/**
 * Rows that give only a name, labelled by what the name can tell apart (applied to every such row by
 * the same rule, whatever any matcher answers). Such a row is indistinguishable in principle from every
 * business in the database the name can name ({@link sameName}: same normalised name, no contradicting
 * legal form): the same row could have been drawn from any of them. When the row's name equals none (a typo, another
 * word order), the same test runs on the name of the record the row was drawn from. Then:
 * - exactly one such business: its id is the only answer a matcher can give from these attributes. When
 *   that is not the record drawn (a held-out record with a namesake abroad, say), the row is
 *   relabelled with it, kind `namesake:<kind>`;
 * - several: no matcher can tell which one the row means, so abstaining is the only right answer; the
 *   label becomes null, kind `ambiguous:<kind>` (for rows drawn from the database as for held-out ones).
 * Rows with a domain, URL or profile keep their label: those keys are unique, so they tell entities
 * apart. `original` keeps the label as drawn (see {@link drawnLabels}).
 */
export function labelByAttributes(
  rows: readonly EvalRow<BusinessRowInput>[],
  snapshot: HeldOutSnapshot,
  present: BusinessMatchIndex,
): EvalRow<BusinessRowInput>[] {
  const names = new Map(snapshot.businesses.map((b) => [b.business_id, b.name]));
  return rows.map((row) => {
    const { input } = row;
    if (typeof input.name !== 'string' || input.domain || input.url || input.linkedin_url) return row;
    let found = sameName(input.name, present);
    if (found.length === 0) found = sameName(names.get(row.source), present);
    const kind = row.kind.replace(/^unseen:/, '');
    if (found.length > 1) return { ...row, kind: `ambiguous:${kind}`, truth: null };
    const only = found.length === 1 ? (present.ids[found[0] as number] as string) : null;
    if (only === null || only === row.truth) return row;
    return { ...row, kind: `namesake:${kind}`, truth: only };
  });
}

/** The rows with the labels as drawn: the record's id, or null for a held-out record. */
export function drawnLabels<Input>(rows: readonly EvalRow<Input>[]): EvalRow<Input>[] {
  return rows.map((row) => ({
    ...row,
    kind: (row.original === null ? 'unseen:' : '') + row.kind.replace(/^(unseen|ambiguous|namesake):/, ''),
    truth: row.original,
  }));
}

export function prospectEvalSet(
  snapshot: HeldOutSnapshot,
  perKind: number,
  seed = 2,
): EvalRow<ProspectRowInput>[] {
  const rng = new Prng(seed);
  const byId = new Map(snapshot.businesses.map((b) => [b.business_id, b]));
  return build(
    rng,
    snapshot.prospects,
    (p) => snapshot.heldProspects.has(p.prospect_id),
    PROSPECT_KINDS,
    perKind,
    0.1,
    (p, kind) => prospectRow(rng, p, p.business_id ? byId.get(p.business_id) : undefined, kind),
    (p) => p.prospect_id,
  );
}
