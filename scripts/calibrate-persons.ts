/**
 * Fits the person-name confidence table `src/core/match/person-confidence.ts` (share of right answers per
 * score band × lead band, per e-mail evidence and one-word names) on generated people, never on the real
 * sets the benches and quality tests evaluate on (FEBRL 4 and the others in `shared/data/real`).
 *
 * The population: companies of 6 to 3,000 people, names from the generator's cultures (a company mostly
 * of one culture, a quarter from others; double and hyphenated surnames, middle names), work e-mails in
 * the company's pattern. The queries: people in the data and, a quarter of them, people who are not
 * (the matcher must not take them for a namesake), each name written with the noise real lists carry
 * (typos in either name, swapped order, "Last, First", initials, missing parts, nicknames, middle names
 * added or dropped, one part of a double surname, transliterations, titles and suffixes, case), with the
 * company's name or with an e-mail written another way than the stored one.
 *
 *   node --import tsx scripts/calibrate-persons.ts           rewrites the table
 *   node --import tsx scripts/calibrate-persons.ts --check   exits 1 when the committed table differs
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { Prng } from '../tools/rng.js';
import { matchProspectRow, prospectContext, type NameFeatures } from '../src/core/match/prospects.js';
import { echoProspect } from '../src/core/match/input.js';
import { openEngine } from '../src/engine.js';
import { CULTURES, type Culture } from '../tools/generate/data/names.js';
import { ascii } from '../tools/generate/text.js';
import { GIVEN_VARIANTS } from '../src/normalise/nicknames.js';
import { writeSnapshotFiles } from '../fixtures/write-snapshot.js';

export const TABLE_FILE = fileURLToPath(new URL('../src/core/match/person-confidence.ts', import.meta.url));

/** Score bands (a candidate's score; an agreeing e-mail lifts it above 1) and lead bands. */
const SCORE_BANDS = [0, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.999, 1.05];
const LEAD_BANDS = [0, 0.01, 0.03, 0.06, 0.1, 0.2];
const SIZES = [6, 15, 40, 120, 400, 1200, 3000];
const QUERIES = 16_000;
const ABSENT = 0.1;
const SEED = 20261123;

interface Person {
  first: string;
  middle: string;
  /** One family name, or the two of a double surname. */
  lastParts: string[];
  /** How the parts of a double surname are joined: ' ' or '-'. */
  join: string;
  id: string;
}

const lastName = (p: Person) => p.lastParts.join(p.join);

interface Company {
  name: string;
  domain: string;
  id: string;
  pattern: number;
  culture: Culture;
  people: Person[];
}

const CULTURE_LIST = Object.values(CULTURES);
const hex = (s: string, n: number) => createHash('sha1').update(s).digest('hex').slice(0, n);
const COMPANY_WORDS = 'North,Blue,Iron,Silver,Bright,Cedar,Harbour,Summit,Delta,Pioneer,Atlas,Vertex'.split(
  ',',
);
const COMPANY_KINDS = 'Logistics,Analytics,Foods,Health,Mining,Systems,Partners,Labs'.split(',');

/**
 * A person of `culture`; each name drawn from another culture two times in five (the generator's
 * lists are short: drawn from one list, a company of thousands is mostly namesakes, which real
 * companies are not).
 */
function newPerson(rng: Prng, culture: Culture, id: string): Person {
  const male = rng.chance(0.5);
  const from = () => (rng.chance(0.6) ? culture : rng.pick(CULTURE_LIST));
  const given = (c: Culture) => (male ? c.male : c.female);
  const lastParts = [rng.pick(from().last)];
  let join = ' ';
  if (culture === CULTURES.spanish || culture === CULTURES.hispanic) {
    if (rng.chance(0.3)) lastParts.push(rng.pick(from().last));
  } else if (rng.chance(0.04)) {
    lastParts.push(rng.pick(from().last));
    join = '-';
  }
  const middle = rng.chance(0.12) ? rng.pick(given(from())) : '';
  const first = rng.pick(given(from()));
  // Some records lack a part: the given name (a list that kept surnames only) or the family name.
  const lacks = rng.next();
  if (lacks < 0.03) return { first: '', middle: '', lastParts, join, id };
  if (lacks < 0.04) return { first, middle: '', lastParts: [], join, id };
  return { first, middle, lastParts, join, id };
}

/** The local part of a person's address in pattern `k`. */
function localPart(p: Person, k: number): string {
  const f = ascii(p.first);
  const l = ascii(lastName(p));
  if (f === '' || l === '') return f || l;
  return [`${f}.${l}`, `${f[0]}${l}`, f, `${f}${l[0]}`, `${f}_${l}`, `${l}.${f}`, `${f}${l}`][k] as string;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One edit (substitute, delete, insert, swap two letters) inside a word of at least three letters. */
function typo(rng: Prng, w: string): string {
  if (w.length < 3) return w;
  const i = 1 + rng.int(w.length - 1);
  const ch = rng.pick([...LETTERS]);
  switch (rng.int(4)) {
    case 0:
      return w.slice(0, i) + ch + w.slice(i + 1);
    case 1:
      return w.slice(0, i) + w.slice(i + 1);
    case 2:
      return w.slice(0, i) + ch + w.slice(i);
    default:
      return i + 1 < w.length ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2) : w.slice(0, i) + ch;
  }
}

const TRANSLIT: readonly [RegExp, string][] = [
  [/ü/g, 'ue'],
  [/ö/g, 'oe'],
  [/ä/g, 'ae'],
  [/ß/g, 'ss'],
];

/** The name as a list might write it. */
function noisyName(rng: Prng, p: Person, culture: Culture): string {
  let g = p.first;
  let m = p.middle;
  let l = lastName(p);
  if (m !== '' && rng.chance(0.5)) m = '';
  else if (m === '' && rng.chance(0.05)) m = `${rng.pick([...'ABCDEJKLMRS'])}.`;
  if (p.lastParts.length === 2) {
    if (rng.chance(0.4)) l = p.lastParts[rng.int(2)] as string;
    else if (rng.chance(0.3)) l = p.lastParts.join(p.join === ' ' ? '-' : ' ');
  }
  if (rng.chance(0.08)) {
    const v = (GIVEN_VARIANTS.get(g.toLowerCase()) ?? []).filter((x) => x !== g.toLowerCase());
    if (v.length > 0) g = rng.pick(v);
  }
  if (rng.chance(0.02)) g = rng.pick(rng.chance(0.5) ? culture.male : culture.female);
  if (rng.chance(0.12)) g = typo(rng, g);
  if (rng.chance(0.12)) l = typo(rng, l);
  if (rng.chance(0.04)) {
    if (rng.chance(0.5)) g = typo(rng, g);
    else l = typo(rng, l);
  }
  if (rng.chance(0.05)) for (const [re, to] of TRANSLIT) [g, l] = [g.replace(re, to), l.replace(re, to)];
  if (rng.chance(0.02)) {
    const i = 2 + rng.int(Math.max(1, l.length - 3));
    l = `${l.slice(0, i)} ${l.slice(i)}`;
  }
  if (rng.chance(0.07) && g !== '') g = rng.chance(0.5) ? `${g[0]}.` : (g[0] as string);
  const missing = rng.next();
  if (missing < 0.04) g = '';
  else if (missing < 0.08) l = '';
  const given = [g, m].filter(Boolean).join(' ');
  let name: string;
  const order = rng.next();
  if (order < 0.08 && given && l) name = `${l} ${given}`;
  else if (order < 0.16 && given && l) name = `${l}, ${given}`;
  else name = [given, l].filter(Boolean).join(' ');
  if (rng.chance(0.04)) name = `${rng.pick(['Dr.', 'Mr.', 'Ms.', 'Prof.'])} ${name}`;
  if (rng.chance(0.03)) name = `${name} ${rng.pick(['Jr.', 'PhD', 'III'])}`;
  const c = rng.next();
  if (c < 0.08) name = name.toUpperCase();
  else if (c < 0.18) name = name.toLowerCase();
  return name;
}

/** The generated companies and their people. */
function population(rng: Prng): Company[] {
  return SIZES.map((size, c) => {
    const culture = rng.pick(CULTURE_LIST);
    const name = `${COMPANY_WORDS[c % COMPANY_WORDS.length]} ${COMPANY_KINDS[c % COMPANY_KINDS.length]}`;
    const company: Company = {
      name,
      domain: `${name.toLowerCase().replace(/\s+/g, '')}.example`,
      id: hex(`cal-company-${c}`, 32),
      pattern: rng.int(5),
      culture,
      people: [],
    };
    for (let i = 0; i < size; i++) {
      const from = rng.chance(0.75) ? culture : rng.pick(CULTURE_LIST);
      company.people.push(newPerson(rng, from, hex(`cal-${c}-${i}`, 40)));
    }
    return company;
  });
}

function writeSnapshot(dir: string, companies: readonly Company[]): void {
  const businesses = companies.map((c) =>
    JSON.stringify({
      business_id: c.id,
      name: c.name,
      domain: c.domain,
      website: `https://${c.domain}`,
      country_code: 'us',
      country_name: 'united states',
      number_of_employees_range: '1001-5000',
    }),
  );
  const prospects = companies.flatMap((c) =>
    c.people.map((p) =>
      JSON.stringify({
        prospect_id: p.id,
        business_id: c.id,
        first_name: p.first,
        last_name: lastName(p),
        full_name: [p.first, p.middle, lastName(p)].filter(Boolean).join(' '),
        country_code: 'us',
        job_title: 'Analyst',
        emails: [
          {
            address: `${localPart(p, c.pattern)}@${c.domain}`,
            type: 'professional',
            status: 'valid',
            source: 'calibration',
          },
        ],
        phone_numbers: [],
      }),
    ),
  );
  writeSnapshotFiles(dir, businesses, prospects);
}

interface Query {
  input: Record<string, string>;
  truth: string | null;
}

function queries(rng: Prng, companies: readonly Company[]): Query[] {
  const out: Query[] = [];
  const all = companies.flatMap((c) => c.people.map((p) => [c, p] as const));
  for (let n = 0; n < QUERIES; n++) {
    // Half the rows from a company drawn uniformly (small companies count), half from a person drawn so.
    const [company, drawn] = rng.chance(0.5)
      ? (() => {
          const c = rng.pick(companies);
          return [c, rng.pick(c.people)] as const;
        })()
      : rng.pick(all);
    let person = drawn;
    let truth: string | null = person.id;
    if (rng.chance(ABSENT)) {
      // Someone who does not work there (a different full name from everyone who does).
      const names = new Set(company.people.map((p) => `${p.first} ${lastName(p)}`));
      const culture = rng.chance(0.75) ? company.culture : rng.pick(CULTURE_LIST);
      do person = newPerson(rng, culture, '');
      while (names.has(`${person.first} ${lastName(person)}`));
      truth = null;
    }
    const input: Record<string, string> = { full_name: noisyName(rng, person, company.culture) };
    if (rng.chance(0.35)) {
      const x = rng.next();
      let local: string;
      let domain = company.domain;
      if (x < 0.7) local = localPart(person, (company.pattern + 1 + rng.int(6)) % 7);
      else if (x < 0.8) local = localPart(rng.pick(company.people), company.pattern);
      else if (x < 0.9) {
        local = `${localPart(person, rng.int(7))}${rng.chance(0.5) ? 1970 + rng.int(40) : ''}`;
        domain = 'gmail.com';
      } else
        local = `${ascii(person.first).slice(0, 1)}${ascii(lastName(person)).slice(0, 1)}${rng.int(100)}`;
      input.email = `${local}@${domain}`;
      if (domain === 'gmail.com' || rng.chance(0.3)) input.company_name = company.name;
    } else input.company_name = company.name;
    out.push({ input, truth });
  }
  return out;
}

/** Index of the last band starting at or below `x`. */
function band(starts: readonly number[], x: number): number {
  let i = 0;
  while (i + 1 < starts.length && x >= (starts[i + 1] as number)) i++;
  return i;
}

/** Pool-adjacent-violators: the non-decreasing fit of `values` weighted by `weights`. */
function monotone(values: readonly number[], weights: readonly number[]): number[] {
  const blocks: { v: number; w: number; n: number }[] = [];
  values.forEach((v, i) => {
    blocks.push({ v, w: Math.max(weights[i] as number, 1e-6), n: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2]!.v > blocks[blocks.length - 1]!.v) {
      const b = blocks.pop()!;
      const a = blocks[blocks.length - 1]!;
      a.v = (a.v * a.w + b.v * b.w) / (a.w + b.w);
      a.w += b.w;
      a.n += b.n;
    }
  });
  return blocks.flatMap((b) => Array<number>(b.n).fill(b.v));
}

/**
 * Share right per cell, smoothed toward the share of its score band (two pseudo-rows), then made
 * non-decreasing in score (per lead band) and in lead (per score band).
 */
function fit(cells: { n: number; right: number }[][]): number[][] {
  // A score band's share (an empty band takes the one below: shares only grow with the score).
  let below = 0;
  const priors = cells.map((row) => {
    const n = row.reduce((a, c) => a + c.n, 0);
    const right = row.reduce((a, c) => a + c.right, 0);
    below = n === 0 ? below : Math.max(below, (right + 2 * below) / (n + 2));
    return below;
  });
  const rows = cells.map((row, s) => row.map((c) => (c.right + 2 * priors[s]!) / (c.n + 2)));
  const weight = (s: number, l: number) => (cells[s]![l]!.n as number) + 2;
  let table = rows;
  for (let pass = 0; pass < 3; pass++) {
    for (let l = 0; l < LEAD_BANDS.length; l++) {
      const col = monotone(
        table.map((r) => r[l]!),
        table.map((_, s) => weight(s, l)),
      );
      table.forEach((r, s) => (r[l] = col[s]!));
    }
    table = table.map((r, s) =>
      monotone(
        r,
        r.map((_, l) => weight(s, l)),
      ),
    );
  }
  // Rounded, and what alternating fits leave of violations lifted away (cells in order).
  const out = table.map((r) => r.map((x) => Math.round(x * 1000) / 1000));
  out.forEach((r, s) =>
    r.forEach((x, l) => (r[l] = Math.max(x, l > 0 ? r[l - 1]! : 0, s > 0 ? out[s - 1]![l]! : 0))),
  );
  return out;
}

/** Runs the generated queries through the matcher and returns the table module's text. */
export async function calibratePersons(): Promise<{ text: string; observed: number }> {
  const rng = new Prng(SEED);
  const companies = population(rng);
  const dir = mkdtempSync(join(tmpdir(), 'calibrate-persons-'));
  try {
    writeSnapshot(dir, companies);
    const engine = openEngine({});
    try {
      await engine.load(dir, { strict: true });
      const empty = () => SCORE_BANDS.map(() => LEAD_BANDS.map(() => ({ n: 0, right: 0 })));
      const cells = [0, 1, 2, 3].map(() => [empty(), empty()]);
      const ctx = prospectContext(engine, false, 0);
      let seen: [NameFeatures, number] | null = null;
      ctx.observe = (f, pos) => (seen = [f, pos]);
      const { ids } = ctx;
      let observed = 0;
      for (const q of queries(rng, companies)) {
        seen = null;
        matchProspectRow(ctx, echoProspect(q.input));
        if (seen === null) continue; // decided on an exact key
        const [f, pos] = seen as [NameFeatures, number];
        const cell =
          cells[f.email]![f.oneWord ? 1 : 0]![band(SCORE_BANDS, f.score)]![band(LEAD_BANDS, f.lead)]!;
        cell.n++;
        if (ids.at(pos) === q.truth) cell.right++;
        observed++;
      }
      const tables = cells.map((byWords) => byWords.map(fit));
      const options = { ...(await resolveConfig(TABLE_FILE)), filepath: TABLE_FILE };
      return { text: await format(render(tables, observed), options), observed };
    } finally {
      engine.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function render(tables: number[][][][], observed: number): string {
  const grid = (t: number[][]) => `[\n${t.map((r) => `      [${r.join(', ')}],`).join('\n')}\n    ]`;
  return `/**
 * Person-name confidence: the share of right answers per score band × lead band, per e-mail evidence
 * (none, agrees, partial, differs) and one-word names (index 1), fitted on ${observed.toLocaleString('en-US')} generated name
 * decisions. GENERATED by \`node --import tsx scripts/calibrate-persons.ts\`: do not edit by hand.
 */
export const SCORE_BANDS: readonly number[] = [${SCORE_BANDS.join(', ')}];
export const LEAD_BANDS: readonly number[] = [${LEAD_BANDS.join(', ')}];
export const PERSON_CONFIDENCE: readonly (readonly (readonly (readonly number[])[])[])[] = [
${tables.map((byWords) => `  [\n${byWords.map((t) => `    ${grid(t)},`).join('\n')}\n  ],`).join('\n')}
];
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { text, observed } = await calibratePersons();
  if (process.argv.includes('--check')) {
    const same = readFileSync(TABLE_FILE, 'utf8') === text;
    console.log(same ? 'person-confidence.ts is up to date' : 'person-confidence.ts differs: regenerate it');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(TABLE_FILE, text);
  console.log(`wrote ${TABLE_FILE} from ${observed} name decisions`);
}
