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
import { childhoodErrors } from './childhood-classes.js';
import { realCompanySet, realDataDir, realEngine } from './real-data.js';

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
const classify = childhoodErrors(set);

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
  const kind = classify(q, g);
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
