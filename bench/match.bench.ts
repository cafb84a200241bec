/**
 * Match quality and throughput, side by side with baselines measured in the same run:
 *   - quality (P/R/F1 per perturbation kind) of the business and prospect matchers on labelled sets;
 *   - throughput of the batch API on exact-key rows and on mixed rows with typos, beside a plain Map of
 *     normalised keys (exact upper bound), a DuckDB batch SQL match, Fuse.js and MiniSearch (sampled).
 * Data: a seeded generated snapshot with 10% of entities held out, cached under bench/.data/.
 *
 *   node --expose-gc --import tsx bench/match.bench.ts [--businesses 1000000] [--prospects 2000000]
 *     [--per-kind 1000] [--fuzzy-sample N]   (Fuse.js / MiniSearch sample: 200 rows at 100k, 20 at 1M)
 */
import { parseArgs } from 'node:util';
import { matchBusinessRows, matchProspectRows, type BusinessRowInput } from '../src/core/match/index.js';
import { companyContext } from '../src/core/match/company-search.js';
import { prospectMatchIndex } from '../src/indexes/match/prospects.js';
import { businessNameIndex } from '../src/indexes/match/businesses.js';
import { duckdbMatcher, fuseMatcher, mapMatcher, miniSearchMatcher } from './match/baselines.js';
import { evalData } from './match/data.js';
import { businessEvalSet, drawnLabels, prospectEvalSet, type EvalRow } from './match/evalset.js';
import { quality, qualityTable } from './match/quality.js';

const { values } = parseArgs({
  options: {
    businesses: { type: 'string', default: '1000000' },
    prospects: { type: 'string', default: '2000000' },
    'per-kind': { type: 'string', default: '1000' },
    'fuzzy-sample': { type: 'string' },
  },
});
const nBiz = Number(values.businesses);
const nPro = Number(values.prospects);
const perKind = Number(values['per-kind']);
// Fuse.js scans every name per query (3 rows/s at 100k): the sample shrinks as the data grows.
const fuzzySample = Number(values['fuzzy-sample'] ?? Math.max(20, Math.round(2e7 / nBiz)));
const log = (s: string) => process.stderr.write(s + '\n');

const t0 = performance.now();
const { snapshot, engine } = await evalData({
  businesses: nBiz,
  prospects: nPro,
  sample: Math.min(1, 200_000 / nBiz),
  file: nBiz >= 100_000,
});
let t = performance.now();
const ctx = companyContext(engine);
businessNameIndex(engine);
prospectMatchIndex(engine);
log(
  `data ready in ${((t - t0) / 1000).toFixed(1)}s; match indexes built in ${((performance.now() - t) / 1000).toFixed(1)}s`,
);

const bset = businessEvalSet(snapshot, perKind, 1, companyContext(engine));
const pset = prospectEvalSet(snapshot, perKind);

/** Rows per second of `run` over `rows` (a warm-up pass over up to 2,000 rows, then the best of `reps`). */
async function rate<R>(
  rows: readonly R[],
  run: (rows: readonly R[]) => unknown,
  reps = 3,
  warm = true,
): Promise<number> {
  if (warm) await run(rows.slice(0, Math.min(rows.length, 2000)));
  let best = Infinity;
  for (let i = 0; i < reps; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    const s = performance.now();
    await run(rows);
    best = Math.min(best, performance.now() - s);
  }
  return rows.length / (best / 1000);
}

function repeat<T>(rows: readonly T[], n: number): T[] {
  const out: T[] = [];
  while (out.length < n) out.push(...rows.slice(0, n - out.length));
  return out;
}

const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
const ids = (rows: { business_id?: string | null; prospect_id?: string | null }[]) =>
  rows.map((r) => r.business_id ?? r.prospect_id ?? null);

// ---- Quality ----
console.log(
  `# match bench: ${nBiz.toLocaleString('en-US')} businesses, ${nPro.toLocaleString('en-US')} prospects (10% held out)\n`,
);
const bq = quality(
  bset,
  ids(
    matchBusinessRows(
      engine,
      bset.map((r) => r.input),
    ),
  ),
);
console.log(qualityTable(`## prospectdb — businesses (${bset.length} rows)`, bq) + '\n');
{
  const drawn = quality(
    drawnLabels(bset),
    ids(
      matchBusinessRows(
        engine,
        bset.map((r) => r.input),
      ),
    ),
  ).at(-1)!;
  console.log(
    `businesses with the labels as drawn (no namesake or ambiguity relabelling): P ${drawn.precision.toFixed(4)}  R ${drawn.recall.toFixed(4)}  F1 ${drawn.f1.toFixed(4)}\n`,
  );
}
const pq = quality(
  pset,
  ids(
    matchProspectRows(
      engine,
      pset.map((r) => r.input),
    ),
  ),
);
console.log(qualityTable(`## prospectdb — prospects (${pset.length} rows)`, pq) + '\n');
const bo = bq.at(-1)!;
const po = pq.at(-1)!;
const cp = (bo.tp + po.tp) / (bo.tp + po.tp + bo.fp + po.fp);
const cr = (bo.tp + po.tp) / (bo.tp + po.tp + bo.fn + po.fn);
console.log(
  `combined: P ${cp.toFixed(4)}  R ${cr.toFixed(4)}  F1 ${((2 * cp * cr) / (cp + cr)).toFixed(4)}\n`,
);

// ---- Baselines on the business set ----
const inputs = bset.map((r) => r.input);
const mapRun = mapMatcher(ctx.index, ctx.ids);
const duck = await duckdbMatcher(ctx.index, ctx.ids);
const side: { method: string; P: string; R: string; F1: string; 'rows/s (mixed)': string; note: string }[] =
  [];
const add = (
  method: string,
  rows: EvalRow<BusinessRowInput>[],
  got: (string | null)[],
  rps: number,
  note = '',
) => {
  const q = quality(rows, got).at(-1)!;
  side.push({
    method,
    P: q.precision.toFixed(4),
    R: q.recall.toFixed(4),
    F1: q.f1.toFixed(4),
    'rows/s (mixed)': fmt(rps),
    note,
  });
};
const mixed = repeat(inputs, Math.max(inputs.length, 50_000));
const oursRate = await rate(mixed, (r) => matchBusinessRows(engine, r));
add('prospectdb batch API', bset, ids(matchBusinessRows(engine, inputs)), oursRate);
add('plain Map of keys', bset, mapRun(inputs), await rate(mixed, mapRun), 'exact keys only');
// One timed DuckDB run (after a warm-up) also gives its answers: at 1M it takes a minute or more.
let duckGot: (string | null)[] = [];
const duckRate = await rate(
  inputs,
  async (r) => {
    duckGot = await duck.match(r);
  },
  1,
);
add('DuckDB batch SQL + JW', bset, duckGot, duckRate);
// Fuzzy libraries: a sample (they are slow over large name sets).
const sample = bset
  .filter((_, i) => i % Math.max(1, Math.floor(bset.length / fuzzySample)) === 0)
  .slice(0, fuzzySample);
const sampleInputs = sample.map((r) => r.input);
t = performance.now();
const fuse = fuseMatcher(ctx.index, ctx.ids);
const fuseBuild = performance.now() - t;
add(
  'Fuse.js (sample)',
  sample,
  fuse(sampleInputs),
  await rate(sampleInputs, fuse, 1, false),
  `${sample.length} rows; index ${(fuseBuild / 1000).toFixed(1)}s`,
);
t = performance.now();
const mini = miniSearchMatcher(ctx.index, ctx.ids);
const miniBuild = performance.now() - t;
add(
  'MiniSearch (sample)',
  sample,
  mini(sampleInputs),
  await rate(sampleInputs, mini, 1, false),
  `${sample.length} rows; index ${(miniBuild / 1000).toFixed(1)}s`,
);
add('prospectdb (same sample)', sample, ids(matchBusinessRows(engine, sampleInputs)), oursRate);
duck.close();
console.log('## businesses: quality and throughput beside baselines (mixed rows with typos)');
console.table(side);

// ---- Throughput: exact-key rows ----
const exactKinds = new Set(['domain_only', 'linkedin', 'domain_www', 'domain_url']);
const exactRows = repeat(
  bset.filter((r) => exactKinds.has(r.kind)).map((r) => r.input),
  200_000,
);
const exactOurs = await rate(exactRows, (r) => matchBusinessRows(engine, r));
const exactMap = await rate(exactRows, mapRun);
const proExact = repeat(
  pset
    .filter((r) => r.kind === 'email' || r.kind === 'email_case' || r.kind === 'linkedin')
    .map((r) => r.input),
  200_000,
);
const proExactOurs = await rate(proExact, (r) => matchProspectRows(engine, r));
const proMixed = repeat(
  pset.map((r) => r.input),
  50_000,
);
const proMixedOurs = await rate(proMixed, (r) => matchProspectRows(engine, r));
console.log('\n## throughput (batch API, rows/s)');
console.table([
  {
    rows: 'businesses, exact keys',
    prospectdb: fmt(exactOurs),
    'plain Map': fmt(exactMap),
    ratio: (exactOurs / exactMap).toFixed(2),
  },
  {
    rows: 'businesses, mixed with typos',
    prospectdb: fmt(oursRate),
    'DuckDB SQL': fmt(duckRate),
    ratio: (oursRate / duckRate).toFixed(2),
  },
  { rows: 'prospects, exact keys', prospectdb: fmt(proExactOurs), 'plain Map': '-', ratio: '-' },
  { rows: 'prospects, mixed', prospectdb: fmt(proMixedOurs), 'plain Map': '-', ratio: '-' },
]);
engine.close();
