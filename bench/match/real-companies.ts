/**
 * Company-name matching on real labelled data, beside simple peers measured in the same run:
 *
 *   node --import tsx bench/match/real-companies.ts [--per-kind 80] [--childhood 1200]
 *     [--svg docs/bench/curve-businesses.svg] [--json bench/results/curve-businesses.json]
 *
 * Businesses: US listed-company names (10% held out) and early-childhood organisations (one record per
 * entity). Queries: variants of listed names by kind, held-out names written the same ways (no right
 * answer), and the other written names of each organisation. prospectdb is asked through the facade in
 * 50-row requests (default settings); the P/R curve over `min_confidence` and the reliability table come
 * from the library with explanations. Peers: an exact map of normalised names, DuckDB Jaro-Winkler,
 * SQLite FTS5 trigram (top-1 with an edit-distance check, and without), FlexSearch top-1. The curve
 * section sets our P/R at a ladder of `min_confidence` beside every peer's point(s) per real set and says
 * whether the curve dominates them (`curve.ts`).
 */
import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { Charset, Index } from 'flexsearch';
import Database from 'better-sqlite3';
import { distance } from 'fastest-levenshtein';
import { createAccount } from '../../src/account/accounts.js';
import { matchBusinessRows } from '../../src/core/match/index.js';
import { handle } from '../../src/facade/handle.js';
import { companyMatchKey, foldText } from '../../src/normalise/index.js';
import { curveSection, type CurveSet, type PeerPoint } from './curve.js';
import { realCompanySet, realDataDir, realEngine, score, type RealQuery, type Scores } from './real-data.js';

const { values } = parseArgs({
  options: {
    'per-kind': { type: 'string', default: '80' },
    childhood: { type: 'string' },
    svg: { type: 'string' },
    json: { type: 'string' },
  },
});
const dir = realDataDir();
if (dir === null) throw new Error('shared/data/real not found');
const set = realCompanySet(dir, {
  perKind: Number(values['per-kind']),
  childhood: values.childhood === undefined ? undefined : Number(values.childhood),
  // Variants of the half of the listed names that `scripts/calibrate-companies.ts` does not fit on.
  half: 1,
  // Spaced letters, run-together words, cut words, a subsidiary's form, two slips (`real-data.ts`).
  hard: true,
});
const log = (s: string) => process.stdout.write(s + '\n');
log(
  `${set.businesses.length} businesses, ${set.queries.length} queries (${set.queries.filter((q) => q.truth).length} with an answer)`,
);

const engine = await realEngine(set.businesses);
const { api_key } = await createAccount(engine, { name: 'bench', partner_id: 'bench' });
const names = set.queries.map((q) => q.name);

// prospectdb through the facade, 50 rows a request.
let t = performance.now();
const facade: (string | null)[] = [];
for (let i = 0; i < names.length; i += 50) {
  const res = await handle(engine, {
    method: 'POST',
    path: '/v1/businesses/match',
    headers: { api_key },
    body: { businesses_to_match: names.slice(i, i + 50).map((name) => ({ name })) },
  });
  if (res.status !== 200) throw new Error(`facade ${res.status}: ${JSON.stringify(res.body)}`);
  for (const r of (res.body as { matched_businesses: { business_id: string | null }[] }).matched_businesses)
    facade.push(r.business_id);
}
const facadeMs = performance.now() - t;

// The same rows with explanations and alternatives: the same decision on every row.
const explained = matchBusinessRows(
  engine,
  names.map((name) => ({ name })),
  { explain: true, alternatives: 3 },
);
const differ = explained.filter((r, i) => r.business_id !== facade[i]).length;

// Best guesses with confidences (threshold 0): the curve over min_confidence and the reliability table.
const guesses = matchBusinessRows(
  engine,
  names.map((name) => ({ name })),
  { explain: true, minConfidence: 0 },
);
const guessDiffer = matchBusinessRows(
  engine,
  names.map((name) => ({ name })),
  { minConfidence: 0 },
).filter((r, i) => r.business_id !== guesses[i]!.business_id).length;

// Peers.
const ids = set.businesses.map((b) => b.business_id);
const keys = set.businesses.map((b) => companyMatchKey(b.name));
const folded = set.businesses.map((b) => foldText(b.name));
const exactMap = new Map<string, number>();
keys.forEach((k, i) => exactMap.set(k, exactMap.has(k) ? -1 : i));
const exact = names.map((n) => {
  const p = exactMap.get(companyMatchKey(n));
  return p === undefined || p < 0 ? null : (ids[p] as string);
});

t = performance.now();
const duck = await DuckDBInstance.create(':memory:');
const conn = await duck.connect();
await conn.run('CREATE TABLE b (i INTEGER, name VARCHAR)');
await conn.run('CREATE TABLE q (i INTEGER, name VARCHAR)');
const insert = async (table: string, xs: readonly string[]) => {
  const app = await conn.createAppender(table);
  xs.forEach((x, i) => {
    app.appendInteger(i);
    app.appendVarchar(x);
    app.endRow();
  });
  app.closeSync();
};
await insert('b', folded);
await insert(
  'q',
  names.map((n) => foldText(n)),
);
const jw = await conn.runAndReadAll(
  `SELECT q.i, arg_max(b.i, jaro_winkler_similarity(q.name, b.name)) AS bi, max(jaro_winkler_similarity(q.name, b.name)) AS s
   FROM q, b GROUP BY q.i`,
);
const jwBest = new Map<number, [number, number]>();
for (const [qi, bi, s] of jw.getRows()) jwBest.set(Number(qi), [Number(bi), Number(s)]);
const duckMs = performance.now() - t;
const jwAt = (threshold: number) =>
  names.map((_, i) => {
    const b = jwBest.get(i);
    return b && b[1] >= threshold ? (ids[b[0]] as string) : null;
  });

t = performance.now();
const lite = new Database(':memory:');
lite.exec(`CREATE VIRTUAL TABLE f USING fts5(name, tokenize='trigram')`);
const ins = lite.prepare('INSERT INTO f(rowid, name) VALUES (?, ?)');
lite.transaction(() => folded.forEach((n, i) => ins.run(i + 1, n)))();
const search = lite.prepare('SELECT rowid FROM f WHERE f MATCH ? ORDER BY bm25(f) LIMIT 1');
const ftsTop = names.map((n) => {
  const words = foldText(n)
    .split(' ')
    .filter((w) => w.length >= 3);
  if (words.length === 0) return -1;
  const row = search.get(words.map((w) => `"${w}"`).join(' OR ')) as { rowid: number } | undefined;
  return row === undefined ? -1 : row.rowid - 1;
});
const ftsMs = performance.now() - t;
const fts = (check: boolean) =>
  ftsTop.map((p, i) => {
    if (p < 0) return null;
    if (check) {
      const a = foldText(names[i] as string);
      const b = folded[p] as string;
      if (1 - distance(a, b) / Math.max(a.length, b.length) < 0.8) return null;
    }
    return ids[p] as string;
  });

t = performance.now();
const flex = new Index({ tokenize: 'forward', encoder: Charset.LatinBalance });
folded.forEach((n, i) => flex.add(i, n));
const flexTop = names.map((n) => {
  const hit = flex.search(foldText(n), { limit: 1, suggest: true }) as number[];
  return hit.length === 0 ? null : (ids[hit[0] as number] as string);
});
const flexMs = performance.now() - t;

const line = (label: string, s: Scores) =>
  `| ${label} | ${s.precision.toFixed(3)} | ${s.recall.toFixed(3)} | ${s.f1.toFixed(3)} |`;
const overall = (got: readonly (string | null)[]) =>
  score(set.queries, got).find((s) => s.kind === 'overall')!;
const jwThresholds = [0.9, 0.95];
/** The `min_confidence` ladder of our curve, and the Jaro-Winkler thresholds of the DuckDB peer. */
const LADDER = [
  0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999,
];
const JW_LADDER = [0.8, 0.85, 0.9, 0.92, 0.94, 0.96, 0.98];
log(`\n## Overall (same run)\n\n| matcher | P | R | F1 |\n|---|---|---|---|`);
log(
  line(`prospectdb, default (facade, 50-row requests; ${(facadeMs / 1000).toFixed(1)} s)`, overall(facade)),
);
log(line('exact map of normalised names', overall(exact)));
for (const th of jwThresholds)
  log(line(`DuckDB Jaro-Winkler ≥ ${th} (${(duckMs / 1000).toFixed(1)} s)`, overall(jwAt(th))));
log(line(`SQLite FTS5 trigram + edit check ≥ 0.8 (${(ftsMs / 1000).toFixed(1)} s)`, overall(fts(true))));
log(line('SQLite FTS5 trigram top-1, no check', overall(fts(false))));
log(line(`FlexSearch top-1 (forward, suggest; ${(flexMs / 1000).toFixed(1)} s)`, overall(flexTop)));
log(
  `\nplain vs explained+alternatives: ${differ} rows differ; plain vs explained at min_confidence 0: ${guessDiffer}`,
);

log(
  `\n## Per kind (prospectdb default | exact map | FTS5 + check)\n\n| kind | rows | P | R | exact P/R | FTS5 P/R |\n|---|---|---|---|---|---|`,
);
const mine = score(set.queries, facade);
const ex = score(set.queries, exact);
const ft = score(set.queries, fts(true));
for (const s of mine.sort((a, b) => a.kind.localeCompare(b.kind))) {
  const e = ex.find((x) => x.kind === s.kind)!;
  const f = ft.find((x) => x.kind === s.kind)!;
  log(
    `| ${s.kind} | ${s.rows} | ${s.precision.toFixed(3)} | ${s.recall.toFixed(3)} | ${e.precision.toFixed(2)}/${e.recall.toFixed(2)} | ${f.precision.toFixed(2)}/${f.recall.toFixed(2)} |`,
  );
}

// The curve: a threshold keeps the guesses whose confidence reaches it, per real set, beside the peers.
const conf = guesses.map((r) => r.match_confidence ?? 0);
const ourAt = (th: number) => guesses.map((r, i) => ((conf[i] as number) >= th ? r.business_id : null));
const sets: CurveSet[] = [
  ['listed-name variants and held-out names', (q: RealQuery) => !q.kind.endsWith('childhood')],
  ['early-childhood organisations', (q: RealQuery) => q.kind.endsWith('childhood')],
  ['all rows', () => true],
].map(([label, keep]) => {
  const k = keep as (q: RealQuery) => boolean;
  const idx = set.queries.flatMap((q, i) => (k(q) ? [i] : []));
  const qs = idx.map((i) => set.queries[i] as RealQuery);
  const sub = (got: readonly (string | null)[]) => {
    const o = score(
      qs,
      idx.map((i) => got[i] ?? null),
    ).find((x) => x.kind === 'overall')!;
    return { precision: o.precision, recall: o.recall };
  };
  const peers: PeerPoint[] = [
    { peer: 'exact map', label: 'exact', ...sub(exact) },
    { peer: 'SQLite FTS5 top-1', label: 'top-1', ...sub(fts(false)) },
    { peer: 'SQLite FTS5 + edit check', label: '≥ 0.8', ...sub(fts(true)) },
    { peer: 'FlexSearch top-1', label: 'top-1', ...sub(flexTop) },
    ...JW_LADDER.map((th) => ({ peer: 'DuckDB Jaro-Winkler', label: `≥ ${th}`, ...sub(jwAt(th)) })),
  ];
  return {
    label: label as string,
    rows: idx.length,
    default: sub(facade),
    ours: LADDER.map((th) => ({ threshold: th, ...sub(ourAt(th)) })),
    peers,
    reliability: reliability(idx),
  };
});

function reliability(idx: readonly number[]): { from: number; guesses: number; right: number }[] {
  const out: { from: number; guesses: number; right: number }[] = [];
  for (let b = 0; b < 10; b++) {
    let n = 0;
    let right = 0;
    for (const i of idx) {
      const r = guesses[i]!;
      const c = conf[i] as number;
      if (r.business_id === null || Math.min(9, Math.floor(c * 10)) !== b) continue;
      n++;
      if (r.business_id === (set.queries[i] as RealQuery).truth) right++;
    }
    if (n > 0) out.push({ from: b / 10, guesses: n, right: right / n });
  }
  return out;
}

const svg = curveSection(log, 'businesses', sets);
if (values.svg !== undefined) writeFileSync(values.svg, svg);
if (values.json !== undefined)
  writeFileSync(values.json, JSON.stringify({ entity: 'businesses', sets }, null, 1) + '\n');
if (process.env.SHOW) {
  const byId = new Map(set.businesses.map((b) => [b.business_id, b.name]));
  set.queries.forEach((q, i) => {
    const g = facade[i];
    if (g !== q.truth && (process.env.SHOW === 'all' || g !== null))
      log(
        `${q.kind}\t${q.name}\ttruth: ${q.truth && byId.get(q.truth)}\tgot: ${g && byId.get(g)}\tguess: ${guesses[i]!.business_id && byId.get(guesses[i]!.business_id!)} ${conf[i]}`,
      );
  });
}
engine.close();
