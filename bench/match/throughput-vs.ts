/**
 * Mixed-row business match throughput of this tree beside another checkout of the project, in one run
 * (alternating rounds, the same rows, default settings and at `min_confidence` 0.01):
 *
 *   node --import tsx bench/match/throughput-vs.ts /path/to/other/checkout
 */
import type * as realData from './real-data.js';
import { realCompanySet, realDataDir, realEngine } from './real-data.js';
import type * as matchApi from '../../src/core/match/index.js';
import { matchBusinessRows } from '../../src/core/match/index.js';

const other = process.argv[2];
if (other === undefined) throw new Error('usage: throughput-vs.ts <other checkout>');
const dir = realDataDir();
if (dir === null) throw new Error('shared/data/real not found');
const set = realCompanySet(dir, { perKind: 80, half: 1, hard: true });
const rows = set.queries.map((q) => ({ name: q.name }));
const base = {
  data: (await import(`${other}/bench/match/real-data.ts`)) as typeof realData,
  match: ((await import(`${other}/src/core/match/index.ts`)) as typeof matchApi).matchBusinessRows,
};
const ours = await realEngine(set.businesses);
const theirs = await base.data.realEngine(set.businesses);
type Match = typeof matchBusinessRows;
const rate = (match: Match, engine: typeof ours, minConfidence?: number) => {
  const t = performance.now();
  let n = 0;
  while (performance.now() - t < 1500) {
    match(engine, rows, { minConfidence });
    n += rows.length;
  }
  return n / ((performance.now() - t) / 1000);
};
for (const minConfidence of [undefined, 0.01]) {
  rate(matchBusinessRows, ours, minConfidence); // warm-up
  rate(base.match as Match, theirs, minConfidence);
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < 3; round++) {
    a.push(rate(matchBusinessRows, ours, minConfidence));
    b.push(rate(base.match as Match, theirs, minConfidence));
  }
  const med = (xs: number[]) => xs.sort((x, y) => x - y)[1] as number;
  console.log(
    `min_confidence ${minConfidence ?? 'absent'}: ${rows.length} mixed rows; this tree ${Math.round(med(a))} rows/s, other ${Math.round(med(b))} rows/s, ratio ${(med(a) / med(b)).toFixed(2)}`,
  );
}
ours.close();
theirs.close();
