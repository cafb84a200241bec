/**
 * Labelled company-name sets built from real data (`../shared/data/real/`), shared by the real-data bench
 * and its quality test: early-childhood organisations (names written many ways by several agencies,
 * hand-labelled `True Id`) and US listed-company names (distractors, and the source of variants written
 * the way real registers, patent filings and CRMs write names, by kind).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDataDir, sharedDataFile } from '../../scripts/shared-data.js';
import { parseCsv } from '../../src/jobs/csv.js';
import { companyMatchKey } from '../../src/normalise/index.js';
import { scores } from '../../src/core/match/evaluate.js';
import { openEngine, type Engine } from '../../src/engine.js';
import type { Quality } from './quality.js';
import { mulberry32 } from '../../tools/rng.js';

/** `shared/data/real` beside the repository, or null. */
export function realDataDir(): string | null {
  return sharedDataFile('real/nasdaq-listed.csv') === null ? null : join(sharedDataDir() as string, 'real');
}

export interface RealBusiness {
  business_id: string;
  name: string;
  country_code: string;
}

export interface RealQuery {
  name: string;
  truth: string | null;
  kind: string;
}

export interface RealSet {
  businesses: RealBusiness[];
  queries: RealQuery[];
}

function rows(file: string): Record<string, string>[] {
  const [header, ...body] = parseCsv(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  return body.map((r) => Object.fromEntries((header ?? []).map((h, i) => [h, r[i] ?? ''])));
}

/** What a listing's security description adds to the company name ("… Common Stock", "… Class A"). */
const SECURITY =
  /\s*(?:-\s*)?(?:common stock|ordinary shares?|american depositary|depositary shares?|class [a-z]\b|warrants?\b|units?\b|rights?\b|preferred|series [a-z]\b|\d+(?:\.\d+)?%|notes? due|senior notes|subordinated|beneficial interest|shares of|common shares|subordinate voting|each representing|\(the company\)).*$/i;

/** Listed company names: ETFs and test issues dropped, security descriptions cut, one per name key. */
export function listedNames(dir: string): string[] {
  const out = new Map<string, string>();
  const add = (raw: string) => {
    const name = raw
      .replace(SECURITY, '')
      .replace(/[\s,-]+$/, '')
      .trim();
    const key = companyMatchKey(name);
    if (name.length < 3 || key.length < 3 || out.has(key)) return;
    out.set(key, name);
  };
  for (const r of rows(`${dir}/nasdaq-listed.csv`))
    if (r.ETF !== 'Y' && r['Test Issue'] !== 'Y') add(r['Company Name'] ?? '');
  for (const r of rows(`${dir}/nyse-other-listed.csv`))
    if (r.ETF !== 'Y' && r['Test Issue'] !== 'Y') add(r['Company Name'] ?? '');
  return [...out.values()];
}

/** The distinct `Company Name` values of the listings (trimmed), in file order. */
export function listedCompanyNames(dir: string): string[] {
  const out = new Set<string>();
  for (const file of ['nasdaq-listed.csv', 'nyse-other-listed.csv']) {
    for (const r of rows(`${dir}/${file}`)) {
      const name = (r['Company Name'] ?? '').trim();
      if (name.length > 0) out.add(name);
    }
  }
  return [...out];
}

/** Business ids are 32 lowercase hex digits. */
const hexId = (n: number) => n.toString(16).padStart(32, '0');

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

/** Legal forms as written at the end of US listings (what a variant swaps or spells out). */
const FORM_AT_END =
  /[\s,]+(inc\.?|incorporated|corp\.?|corporation|co\.?|company|ltd\.?|limited|plc|llc|l\.p\.|lp|n\.v\.|s\.a\.|ag|se|sa|nv)$/i;
const SPELLED: Record<string, string> = {
  inc: 'Incorporated',
  corp: 'Corporation',
  co: 'Company',
  ltd: 'Limited',
  plc: 'Public Limited Company',
  llc: 'Limited Liability Company',
  nv: 'Naamloze Vennootschap',
  sa: 'Société Anonyme',
  ag: 'Aktiengesellschaft',
};
const OTHER_FORMS = ['Inc.', 'Corp.', 'Ltd', 'N.V.', 'S.A.', 'AG', 'GmbH', 'PLC', 'LLC', 'B.V.', 'Co., Ltd.'];
const PLACES = [
  ', New York, NY',
  ', Wilmington, Delaware',
  ', Utrecht, NL',
  ' te Amsterdam',
  ', Tokyo, Japan',
  ', München, Deutschland',
  ' (USA)',
  ', Paris, France',
  ' in Delaware',
  ', Zug, Switzerland',
];
const FRONT = ['N.V.', 'Société dite', 'Kabushiki Kaisha', 'AG', 'The'];
const MARKERS = ['* ', '- ', '** ', '# ', '"'];

/** A variant of `name` of the given kind, or null when the kind does not apply to it. */
export function variant(r: () => number, name: string, kind: string): string | null {
  const m = FORM_AT_END.exec(name);
  const base = m ? name.slice(0, m.index) : name;
  const form = m ? (m[1] as string) : null;
  const formKey = form?.toLowerCase().replace(/\./g, '') ?? '';
  const words = base.split(/\s+/);
  switch (kind) {
    case 'trailing_location':
      return name + pick(r, PLACES);
    case 'other_legal_form': {
      if (form === null) return null;
      const others = OTHER_FORMS.filter((f) => f.toLowerCase().replace(/\./g, '') !== formKey);
      return `${base} ${pick(r, others)}`;
    }
    case 'spelled_out_form':
      return form && SPELLED[formKey] ? `${base} ${SPELLED[formKey]}` : null;
    case 'form_in_front':
      return form ? `${pick(r, FRONT)} ${base}` : null;
    case 'truncation': {
      if (form) return `${base} ${form.slice(0, 1)}`;
      const last = words[words.length - 1] as string;
      if (words.length < 2 || last.length < 6) return null;
      return `${words.slice(0, -1).join(' ')} ${last.slice(0, Math.ceil(last.length * 0.6))}`;
    }
    case 'initials': {
      const i = words.findIndex((w) => /^[A-Z]{2,4}$/.test(w));
      if (i < 0) return null;
      const w = words[i] as string;
      const spaced = r() < 0.5 ? w.split('').join('.') + '.' : w.split('').join(' ');
      return [...words.slice(0, i), spaced, ...words.slice(i + 1)].join(' ') + (form ? ` ${form}` : '');
    }
    case 'dropped_word': {
      if (words.length < 3) return null;
      return words.slice(0, -1).join(' ') + (form ? ` ${form}` : '');
    }
    case 'abbreviation': {
      const i = words.findIndex((w, j) => j > 0 && w.length >= 8);
      if (i < 0) return null;
      const w = words[i] as string;
      return (
        [...words.slice(0, i), w.slice(0, 5) + '.', ...words.slice(i + 1)].join(' ') +
        (form ? ` ${form}` : '')
      );
    }
    case 'marker':
      return pick(r, MARKERS) + name;
    case 'case_punctuation':
      return name.toUpperCase().replace(/[.,]/g, '');
    case 'and_sign':
      return / and | & /i.test(name)
        ? name.replace(/ and /i, ' & ').replace(/ & /, r() < 0.5 ? ' + ' : ' and ')
        : null;
    case 'typo': {
      const i = words.findIndex((w) => w.length >= 6);
      if (i < 0) return null;
      const w = words[i] as string;
      const j = 1 + Math.floor(r() * (w.length - 2));
      const typo = w.slice(0, j) + (w[j + 1] ?? '') + w[j] + w.slice(j + 2);
      return [...words.slice(0, i), typo, ...words.slice(i + 1)].join(' ') + (form ? ` ${form}` : '');
    }
    case 'spaced_letters': {
      // Initials and legal form written letter by letter ("D S M N. V." for "DSM N.V.").
      const i = words.findIndex((w) => /^[A-Z]{2,5}$/.test(w));
      if (i < 0) return null;
      const spaced = (words[i] as string).split('').join(' ');
      const f = form === null ? '' : ' ' + form.replace(/\./g, '').toUpperCase().split('').join('. ') + '.';
      return [...words.slice(0, i), spaced, ...words.slice(i + 1)].join(' ') + f;
    }
    case 'joined_words': {
      // Words run together, as scanned or keyed registers write them ("GISTBROCADES", "…INDUSTRIESB.V.").
      if (words.length < 2) return null;
      return (base.replace(/[\s,&'-]+/g, '') + (form ?? '')).toUpperCase();
    }
    case 'cut_word': {
      // A long word cut without a full stop, in capitals ("KONINKL PHILIPS").
      const i = words.findIndex((w) => w.length >= 9);
      if (i < 0) return null;
      const w = words[i] as string;
      const cut = w.slice(0, 5 + Math.floor(r() * 3));
      return (
        [...words.slice(0, i), cut, ...words.slice(i + 1)].join(' ').toUpperCase() + (form ? ` ${form}` : '')
      );
    }
    case 'form_inside':
      // A subsidiary written after the parent's full name ("… Technologies, Inc. Netherlands B.V.").
      return form ? `${name} ${pick(r, SUBSIDIARY)}` : null;
    case 'rare_typo': {
      // Two slips in the longest word (the one that tells the name apart).
      let i = 0;
      words.forEach((w, j) => {
        if (w.length > (words[i] as string).length) i = j;
      });
      const w = words[i] as string;
      if (w.length < 7) return null;
      const j = 1 + Math.floor(r() * (w.length - 3));
      const k = j + 2 + Math.floor(r() * (w.length - j - 2));
      const typo =
        w.slice(0, j) +
        (w[j + 1] ?? '') +
        w[j] +
        w.slice(j + 2, k) +
        'aeiou'[Math.floor(r() * 5)] +
        w.slice(k + 1);
      return [...words.slice(0, i), typo, ...words.slice(i + 1)].join(' ') + (form ? ` ${form}` : '');
    }
    default:
      return null;
  }
}

const SUBSIDIARY = [
  'Netherlands B.V.',
  'Deutschland GmbH',
  'Japan K.K.',
  'UK Limited',
  'France S.A.S.',
  'Europe B.V.',
  'Canada Inc.',
  'Italia S.r.l.',
  'España S.L.',
  'Schweiz AG',
];

/**
 * Harder ways registers write names (patent assignees, scanned filings): letters spaced, words run
 * together, long words cut, a subsidiary's legal form after the parent's name, two slips in the word
 * that tells the name apart. Drawn with their own generator, so the sets without them stay as they were.
 */
export const HARD_KINDS = ['spaced_letters', 'joined_words', 'cut_word', 'form_inside', 'rare_typo'] as const;

export const VARIANT_KINDS = [
  'trailing_location',
  'other_legal_form',
  'spelled_out_form',
  'form_in_front',
  'truncation',
  'initials',
  'dropped_word',
  'abbreviation',
  'marker',
  'case_punctuation',
  'and_sign',
  'typo',
] as const;

/**
 * Listed names as businesses (a share held out: their variants must stay unmatched), with `perKind`
 * variants of each kind; early-childhood organisations added as businesses (one record per entity) with
 * their other written names as queries.
 */
export function realCompanySet(
  dir: string,
  options: { perKind: number; seed?: number; childhood?: number; half?: 0 | 1; hard?: boolean },
): RealSet {
  const r = mulberry32(options.seed ?? 7);
  const rOuter = r;
  const names = listedNames(dir);
  const businesses: RealBusiness[] = [];
  const queries: RealQuery[] = [];
  const present: { id: string; name: string }[] = [];
  const held: string[] = [];
  // With `half`, variants come from every other listed name only (the calibration script fits on one
  // half, the bench evaluates on the other); every name stays in the snapshot as a distractor.
  const drawn = (i: number) => options.half === undefined || i % 2 === options.half;
  names.forEach((name, i) => {
    if (r() < 0.1) {
      if (drawn(i)) held.push(name);
      return;
    }
    const id = hexId(i + 1);
    businesses.push({ business_id: id, name, country_code: 'US' });
    if (drawn(i)) present.push({ id, name });
  });
  const hr = mulberry32((options.seed ?? 7) + 1000);
  for (const kind of [...VARIANT_KINDS, ...(options.hard === true ? HARD_KINDS : [])]) {
    const r = (VARIANT_KINDS as readonly string[]).includes(kind) ? rOuter : hr;
    let made = 0;
    for (let tries = 0; made < options.perKind && tries < options.perKind * 40; tries++) {
      const b = pick(r, present);
      const v = variant(r, b.name, kind);
      if (v === null || v === b.name) continue;
      queries.push({ name: v, truth: b.id, kind });
      made++;
    }
    // Held-out names written the same way: no answer is right.
    let absent = 0;
    for (let tries = 0; absent < Math.ceil(options.perKind / 4) && tries < options.perKind * 40; tries++) {
      const v = variant(r, pick(r, held), kind);
      if (v === null) continue;
      queries.push({ name: v, truth: null, kind: `absent_${kind}` });
      absent++;
    }
  }
  // Early-childhood organisations: one record per entity in the snapshot, the other written forms as queries.
  if (options.childhood === 0) return { businesses, queries };
  const byId = new Map<string, string[]>();
  for (const row of rows(`${dir}/early-childhood.csv`)) {
    const name = (row['Site name'] ?? '').replace(/\s+/g, ' ').trim();
    if (name.length === 0) continue;
    const id = row['True Id'] ?? '';
    byId.set(id, [...(byId.get(id) ?? []), name]);
  }
  const snapshotName = new Map<string, string>();
  let entities = 0;
  for (const written of byId.values()) {
    const id = hexId(0x10000000 + entities);
    if (options.childhood !== undefined && entities >= options.childhood) break;
    entities++;
    const heldOut = r() < 0.1;
    const first = written[0] as string;
    if (!heldOut) {
      businesses.push({ business_id: id, name: first, country_code: 'US' });
      snapshotName.set(first, id);
    }
    for (const w of new Set(written.slice(heldOut ? 0 : 1))) {
      if (w === first && !heldOut) continue;
      queries.push({ name: w, truth: heldOut ? null : id, kind: heldOut ? 'absent_childhood' : 'childhood' });
    }
  }
  // Noisy labels: a name written exactly as another entity's record is not a test of the matcher.
  const clean = queries.filter(
    (q) => !(q.kind === 'childhood' && snapshotName.has(q.name) && snapshotName.get(q.name) !== q.truth),
  );
  return { businesses, queries: clean };
}

/** Per-kind scores, in the shape of the generated-set benches' table rows. */
export type Scores = Quality;

/** P/R/F1 overall and per kind ("absent_*" kinds count only their false positives). */
export function score(queries: readonly RealQuery[], got: readonly (string | null)[]): Scores[] {
  const by = new Map<string, { rows: number; tp: number; fp: number; fn: number }>();
  const add = (k: string, f: (s: { rows: number; tp: number; fp: number; fn: number }) => void) => {
    const s = by.get(k) ?? { rows: 0, tp: 0, fp: 0, fn: 0 };
    f(s);
    by.set(k, s);
  };
  queries.forEach((q, i) => {
    const g = got[i] ?? null;
    const f = (s: { rows: number; tp: number; fp: number; fn: number }) => {
      s.rows++;
      if (g !== null && g === q.truth) s.tp++;
      else if (g !== null) s.fp++;
      if (q.truth !== null && g !== q.truth) s.fn++;
    };
    add(q.kind, f);
    add(
      q.kind.startsWith('absent_')
        ? 'absent (all)'
        : q.kind === 'childhood'
          ? 'childhood (real)'
          : 'variants (all)',
      f,
    );
    add('overall', f);
  });
  return [...by].map(([kind, s]) => {
    const { precision, recall, f1 } = scores(s.rows, s.tp + s.fn, s.tp + s.fp, s.tp);
    return { kind, ...s, precision, recall, f1 };
  });
}

/** An engine over the set's businesses (written as a snapshot folder and loaded strictly). */
export async function realEngine(businesses: readonly RealBusiness[]): Promise<Engine> {
  const d = mkdtempSync(join(tmpdir(), 'real-companies-'));
  const rows = businesses.map((b) => ({
    ...b,
    number_of_employees_range: '51-200',
    is_public_company: true,
  }));
  writeFileSync(join(d, 'businesses.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeFileSync(
    join(d, 'manifest.json'),
    JSON.stringify({ format_version: 1, as_of: '2026-11-01T00:00:00Z' }),
  );
  try {
    const engine = openEngine();
    await engine.load(d, { strict: true });
    return engine;
  } finally {
    // The engine keeps the records in its own database: the folder is not needed after the load.
    rmSync(d, { recursive: true, force: true });
  }
}
