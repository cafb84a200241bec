/**
 * Evaluation rows: one record of the data written the way a CRM export writes it, per perturbation
 * kind (typos, legal forms, URL forms, nicknames, …). Shared by `prospectdb bench` and the match benches
 * in `bench/match/`.
 */
import type { BusinessRowInput, ProspectRowInput } from '../../src/core/match/index.js';
import type { BusinessRecordInput, ProspectRecordInput } from '../../src/schemas/records.js';
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
  punctuation,
  suffixChange,
  theChange,
  typos,
  wordOrder,
} from './perturb.js';
import type { Prng } from '../rng.js';

/** The fields of a business record the rows are drawn from. */
export type BusinessDoc = BusinessRecordInput & { business_id: string; name: string };
/** The fields of a prospect record the rows are drawn from. */
export type ProspectDoc = ProspectRecordInput & { prospect_id: string };

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
