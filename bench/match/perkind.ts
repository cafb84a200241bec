/** Throughput per perturbation kind (tuning aid): `node --import tsx bench/match/perkind.ts [businesses] [prospects]`. */
import { matchBusinessRows } from '../../src/core/match/index.js';
import { companyContext } from '../../src/core/match/company-search.js';
import { businessNameIndex } from '../../src/indexes/match/businesses.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { evalData } from './data.js';
import { quality } from './quality.js';
import { businessEvalSet } from './evalset.js';

const [nb = '300000', np = '600000', per = '1000'] = process.argv.slice(2);
const { snapshot, engine } = await evalData({
  businesses: Number(nb),
  prospects: Number(np),
  sample: Math.min(1, 200_000 / Number(nb)),
  file: true,
});
let t = performance.now();
companyContext(engine);
businessNameIndex(engine);
console.log(`indexes ${((performance.now() - t) / 1000).toFixed(1)}s`);
const bset = businessEvalSet(snapshot, Number(per), 1, companyContext(engine));
const kinds = [...new Set(bset.map((r) => r.kind))];
const all = bset.map((r) => r.input);
const got = matchBusinessRows(engine, all).map((r) => r.business_id);
const q = quality(bset, got).at(-1)!;
console.log(`P ${q.precision.toFixed(4)} R ${q.recall.toFixed(4)} F1 ${q.f1.toFixed(4)}`);
// ANSWERS=file: compare with (or, when absent, save) another build's answers on the same rows.
const file = process.env.ANSWERS;
if (file && existsSync(file)) {
  const before = JSON.parse(readFileSync(file, 'utf8')) as (string | null)[];
  const differ = got.filter((id, i) => id !== before[i]).length;
  console.log(`${differ} rows answered differently from ${file}`);
  if (process.env.SHOW_DIFF)
    got.forEach((id, i) => {
      if (id !== before[i])
        console.log(
          bset[i]!.kind,
          JSON.stringify(bset[i]!.input),
          'truth',
          bset[i]!.truth,
          'before',
          before[i],
          'now',
          id,
        );
    });
} else if (file) writeFileSync(file, JSON.stringify(got));
t = performance.now();
matchBusinessRows(engine, all);
const total = performance.now() - t;
console.log(`mixed: ${bset.length} rows, ${Math.round(bset.length / (total / 1000))} rows/s`);
const rows: { kind: string; rows: number; 'µs/row': number; share: string }[] = [];
for (const k of kinds) {
  const inputs = bset.filter((r) => r.kind === k).map((r) => r.input);
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const s = performance.now();
    matchBusinessRows(engine, inputs);
    best = Math.min(best, performance.now() - s);
  }
  rows.push({
    kind: k,
    rows: inputs.length,
    'µs/row': Math.round((best * 1000) / inputs.length),
    share: ((best / total) * 100).toFixed(1) + '%',
  });
}
rows.sort((a, b) => b['µs/row'] - a['µs/row']);
console.table(rows);
engine.close();
