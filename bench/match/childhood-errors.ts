/**
 * The wrong ids of the default settings on the real early-childhood organisations, classified: label
 * noise (the data holds the written name, or a name no matcher can tell from it, under another id) apart
 * from real errors (a word more or less, a sibling site, a typo of another name). Precision is reported
 * on all rows and on the real errors alone (rows whose wrong id is label noise left out).
 *
 *   node --import tsx bench/match/childhood-errors.ts [--list]
 */
import { parseArgs } from 'node:util';
import { matchBusinessRows } from '../../src/core/match/index.js';
import { companyScore, scoredName, STOP_WORDS } from '../../src/core/match/company-score.js';
import { companyMatchKey } from '../../src/normalise/index.js';
import { realCompanySet, realDataDir, realEngine, type RealQuery } from './real-data.js';

const { values } = parseArgs({ options: { list: { type: 'boolean', default: false } } });
const dir = realDataDir();
if (dir === null) throw new Error('shared/data/real not found');
const set = realCompanySet(dir, { perKind: 80, half: 1 });
const engine = await realEngine(set.businesses);
const got = matchBusinessRows(
  engine,
  set.queries.map((q) => ({ name: q.name })),
).map((r) => r.business_id);
engine.close();

const nameOf = new Map(set.businesses.map((b) => [b.business_id, b.name]));
const words = (name: string) =>
  new Set(
    companyMatchKey(name)
      .split(' ')
      .filter((w) => w && !STOP_WORDS.has(w)),
  );
const score = (a: string, b: string) =>
  companyScore(scoredName(companyMatchKey(a).split(' ')), scoredName(companyMatchKey(b).split(' ')));

/** A name's letters and digits, lower case, one space apart (case, punctuation and accents aside). */
const plain = (name: string) =>
  name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

// How many snapshot names hold each word (to find a query's rarest word).
const df = new Map<string, number>();
for (const b of set.businesses) for (const w of words(b.name)) df.set(w, (df.get(w) ?? 0) + 1);
const rarest = (ws: Set<string>) => [...ws].sort((x, y) => (df.get(x) ?? 0) - (df.get(y) ?? 0))[0];

/**
 * Label noise: the query's name is the matched record's name (up to case and punctuation); the matched
 * record and the labelled one are the same name (two ids for one written name); or the matched record
 * is the query's site written with its parent (it holds every word of the query) while the labelled
 * record lacks the query's rarest word (no name can lead there). Real errors otherwise: one name has
 * words the other lacks (parent vs site, either way), both do (sibling sites), or the names differ by
 * typos (another organisation with a near name).
 */
function classify(q: RealQuery, gotName: string): string {
  if (plain(q.name) === plain(gotName)) return 'noise: same name, other id';
  const truthName = q.truth === null ? null : (nameOf.get(q.truth) ?? null);
  if (truthName !== null && score(truthName, gotName) >= 0.9) return 'noise: two ids, one name';
  const a = words(q.name);
  if (truthName !== null) {
    const g = words(gotName);
    const r = rarest(a);
    if ([...a].every((w) => g.has(w)) && r !== undefined && !words(truthName).has(r))
      return 'noise: the site with its parent; the label lacks the rarest word';
  }
  const b = words(gotName);
  const onlyQ = [...a].filter((w) => !b.has(w)).length;
  const onlyG = [...b].filter((w) => !a.has(w)).length;
  if (score(q.name, gotName) >= 0.8 && a.size === b.size) return 'error: typo or near name';
  if (onlyQ > 0 && onlyG === 0) return 'error: query has a word more (site of the matched)';
  if (onlyG > 0 && onlyQ === 0) return 'error: matched has a word more (site or parent)';
  return 'error: sibling (each has words the other lacks)';
}

const table = new Map<string, { labelled: number; held: number; list: string[] }>();
const count = { labelled: { tp: 0, fp: 0, noise: 0 }, held: { tp: 0, fp: 0, noise: 0 } };
set.queries.forEach((q, i) => {
  if (!q.kind.endsWith('childhood')) return;
  const g = got[i] ?? null;
  if (g === null) return;
  const side = q.kind === 'childhood' ? 'labelled' : 'held';
  if (g === q.truth) {
    count[side].tp++;
    return;
  }
  count[side].fp++;
  const kind = classify(q, nameOf.get(g) as string);
  if (kind.startsWith('noise')) count[side].noise++;
  const t = table.get(kind) ?? { labelled: 0, held: 0, list: [] };
  t[side]++;
  t.list.push(
    `  [${side}] ${q.name}  →  ${nameOf.get(g)}  (truth: ${q.truth === null ? '- (held out)' : nameOf.get(q.truth)})`,
  );
  table.set(kind, t);
});
console.log('| wrong id, by class | labelled rows | held-out rows |\n|---|---|---|');
for (const [k, t] of [...table].sort((a, b) => a[0].localeCompare(b[0])))
  console.log(`| ${k} | ${t.labelled} | ${t.held} |`);
const line = (label: string, c: { tp: number; fp: number; noise: number }) =>
  console.log(
    `${label}: ${c.tp} right, ${c.fp} wrong (${c.noise} label noise, ${c.fp - c.noise} real errors); ` +
      `precision ${(c.tp / (c.tp + c.fp)).toFixed(3)}, on the real errors alone ${(c.tp / (c.tp + c.fp - c.noise)).toFixed(3)}`,
  );
console.log('');
line('labelled rows (the bench\'s "childhood (real)")', count.labelled);
const all = {
  tp: count.labelled.tp + count.held.tp,
  fp: count.labelled.fp + count.held.fp,
  noise: count.labelled.noise + count.held.noise,
};
line('labelled and held-out rows', all);
if (values.list)
  for (const [k, t] of table) {
    console.log(`\n${k}`);
    for (const l of t.list) console.log(l);
  }
