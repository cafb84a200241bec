/**
 * Person matching on real labelled data (FEBRL 4), through the facade in 50-row requests, beside an
 * exact map of normalised names, DuckDB Jaro-Winkler, SQLite FTS5 (trigram) top-1 and FlexSearch top-1
 * (each within the row's company) measured in the same run:
 *   node --import tsx bench/match/real-persons.ts [companies=1,5] [--svg docs/bench/curve-persons.svg]
 *     [--json bench/results/curve-persons.json]
 * Sets: `febrl` (the duplicates' names as given, with the company name), `name only` (the same people
 * written as CRM exports write them: "Last, First", initials, titles …), `name + e-mail` (a work e-mail,
 * often written another way, and no company name). Prints P/R/F1, rows/s, the P/R curve over
 * `min_confidence` beside the peers' points with whether it dominates them (`curve.ts`), and a
 * reliability table of `match_confidence`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { Charset, Index } from 'flexsearch';
import { createAccount } from '../../src/account/accounts.js';
import { matchProspectRows } from '../../src/core/match/index.js';
import { openEngine, type Engine } from '../../src/engine.js';
import { handle } from '../../src/facade/handle.js';
import { foldText, normalisePersonName } from '../../src/normalise/index.js';
import { curveSection, type CurveSet } from './curve.js';
import {
  companyName,
  FEBRL_A,
  FEBRL_B,
  febrlQueries,
  nameEmailQueries,
  nameOnlyQueries,
  prospectIdOf,
  readFebrl,
  score,
  writePersonsSnapshot,
  type LabelledQuery,
  type PersonsSet,
} from './real-persons-data.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args.splice(i, 2)[1];
};
const svgOut = flag('--svg');
const jsonOut = flag('--json');
const companiesArg = (args[0] ?? '1,5').split(',').map(Number);
const CURVE = [0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99];
const JW_LADDER = [0.8, 0.85, 0.9, 0.92, 0.94, 0.96, 0.98];
const curves: { companies: number; sets: CurveSet[] }[] = [];

/** The company a query names (its company name, or its e-mail's domain), as an index, or null. */
const queryCompany = (q: LabelledQuery) =>
  q.input.company_name ? companyIndex(q.input.company_name as string) : emailCompany(q);

/** SQLite FTS5 (trigram) peer: the best-ranked person of the row's company sharing a trigram word. */
function ftsTop1(set: PersonsSet, qs: readonly LabelledQuery[], ids: Map<string, string>): (string | null)[] {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE f USING fts5(name, c UNINDEXED, tokenize='trigram')`);
  const ins = db.prepare('INSERT INTO f(rowid, name, c) VALUES (?, ?, ?)');
  const byRow: string[] = [];
  db.transaction(() =>
    set.originals.forEach((o, i) => {
      ins.run(i + 1, foldText(`${o.given} ${o.surname}`), set.companyOf.get(o.entity) as number);
      byRow.push(ids.get(o.entity) as string);
    }),
  )();
  const search = db.prepare('SELECT rowid FROM f WHERE f MATCH ? AND c = ? ORDER BY bm25(f) LIMIT 1');
  const out = qs.map((q) => {
    const c = queryCompany(q);
    const words = foldText(String(q.input.full_name ?? ''))
      .split(' ')
      .filter((w) => w.length >= 3);
    if (c === null || words.length === 0) return null;
    const row = search.get(words.map((w) => `"${w}"`).join(' OR '), c) as { rowid: number } | undefined;
    return row === undefined ? null : (byRow[row.rowid - 1] as string);
  });
  db.close();
  return out;
}

/** FlexSearch peer: the top hit among the row's company's persons (forward tokens, suggestions on). */
function flexTop1(
  set: PersonsSet,
  qs: readonly LabelledQuery[],
  ids: Map<string, string>,
): (string | null)[] {
  const indexes = new Map<number, Index>();
  const byRow: string[] = [];
  set.originals.forEach((o, i) => {
    const c = set.companyOf.get(o.entity) as number;
    let index = indexes.get(c);
    if (index === undefined)
      indexes.set(c, (index = new Index({ tokenize: 'forward', encoder: Charset.LatinBalance })));
    index.add(i, foldText(`${o.given} ${o.surname}`));
    byRow.push(ids.get(o.entity) as string);
  });
  return qs.map((q) => {
    const c = queryCompany(q);
    const index = c === null ? undefined : indexes.get(c);
    if (index === undefined) return null;
    const hit = index.search(foldText(String(q.input.full_name ?? '')), {
      limit: 1,
      suggest: true,
    }) as number[];
    return hit.length === 0 ? null : (byRow[hit[0] as number] as string);
  });
}

/** Every query through POST /v2/prospects/match in 50-row requests; answers and rows/s. */
async function viaFacade(
  engine: Engine,
  key: string,
  qs: readonly LabelledQuery[],
  minConfidence?: number,
): Promise<{ answers: (string | null)[]; rowsPerSec: number }> {
  const answers: (string | null)[] = [];
  const t = performance.now();
  for (let i = 0; i < qs.length; i += 50) {
    const body: Record<string, unknown> = { prospects_to_match: qs.slice(i, i + 50).map((q) => q.input) };
    if (minConfidence !== undefined) body.min_confidence = minConfidence;
    const r = await handle(engine, {
      method: 'POST',
      path: '/v2/prospects/match',
      headers: { api_key: key },
      body,
    });
    if (r.status !== 200) throw new Error(`status ${r.status}: ${JSON.stringify(r.body)}`);
    for (const row of (r.body as { matched_prospects: { prospect_id: string | null }[] }).matched_prospects)
      answers.push(row.prospect_id);
  }
  return { answers, rowsPerSec: qs.length / ((performance.now() - t) / 1000) };
}

/** The exact-map peer: normalised `given last` key within the company (unique keys only). */
function exactMap(
  set: PersonsSet,
  qs: readonly LabelledQuery[],
  ids: Map<string, string>,
): (string | null)[] {
  const map = new Map<string, string | null>();
  for (const o of set.originals) {
    const k = `${set.companyOf.get(o.entity)}|${normalisePersonName(`${o.given} ${o.surname}`).key}`;
    map.set(k, map.has(k) ? null : (ids.get(o.entity) as string));
  }
  return qs.map((q) => {
    const c = q.input.company_name ? companyIndex(q.input.company_name as string) : emailCompany(q);
    if (c === null) return null;
    return map.get(`${c}|${normalisePersonName(String(q.input.full_name ?? '')).key}`) ?? null;
  });
}

let companyNames: string[] = [];
const companyIndex = (name: string) => {
  const i = companyNames.indexOf(name);
  return i < 0 ? null : i;
};
const emailCompany = (q: LabelledQuery) => {
  const e = String(q.input.email ?? '');
  const d = e.slice(e.indexOf('@') + 1).toLowerCase();
  const i = companyNames.findIndex((n) => `${n.toLowerCase().replace(/\s+/g, '')}.com.au` === d);
  return i < 0 ? null : i;
};

/** DuckDB peer: best Jaro-Winkler of the lower-cased full names within the company, at `threshold`. */
async function duckdbJw(
  set: PersonsSet,
  qs: readonly LabelledQuery[],
  ids: Map<string, string>,
): Promise<{ at: (threshold: number) => (string | null)[]; rowsPerSec: number }> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const t = performance.now();
  await conn.run('CREATE TABLE p (id VARCHAR, c INTEGER, name VARCHAR)');
  const a = await conn.createAppender('p');
  for (const o of set.originals) {
    a.appendVarchar(ids.get(o.entity) as string);
    a.appendInteger(set.companyOf.get(o.entity) as number);
    a.appendVarchar(`${o.given} ${o.surname}`.trim().toLowerCase());
    a.endRow();
  }
  a.closeSync();
  await conn.run('CREATE TABLE q (i INTEGER, c INTEGER, name VARCHAR)');
  const b = await conn.createAppender('q');
  qs.forEach((q, i) => {
    const c = q.input.company_name ? companyIndex(q.input.company_name as string) : emailCompany(q);
    b.appendInteger(i);
    if (c === null) b.appendNull();
    else b.appendInteger(c);
    b.appendVarchar(String(q.input.full_name ?? '').toLowerCase());
    b.endRow();
  });
  b.closeSync();
  const reader = await conn.runAndReadAll(`
    SELECT i, arg_max(p.id, jaro_winkler_similarity(q.name, p.name)) AS id,
           max(jaro_winkler_similarity(q.name, p.name)) AS s
    FROM q JOIN p ON q.c = p.c GROUP BY i`);
  const best = new Map<number, [string, number]>();
  for (const row of reader.getRows()) best.set(Number(row[0]), [String(row[1]), Number(row[2])]);
  const rowsPerSec = qs.length / ((performance.now() - t) / 1000);
  conn.closeSync();
  return {
    rowsPerSec,
    at: (threshold) =>
      qs.map((_, i) => {
        const hit = best.get(i);
        return hit !== undefined && hit[1] >= threshold ? hit[0] : null;
      }),
  };
}

const fmt = (x: number) => x.toFixed(3);
const line = (name: string, q: ReturnType<typeof score>, rps?: number) =>
  `| ${name} | ${fmt(q.precision)} | ${fmt(q.recall)} | ${fmt(q.f1)} | ${rps === undefined ? '-' : Math.round(rps).toLocaleString('en-US')} |`;

const originals = readFebrl(FEBRL_A);
const dups = readFebrl(FEBRL_B);
for (const companies of companiesArg) {
  const dir = mkdtempSync(join(tmpdir(), 'febrl-'));
  const set = writePersonsSnapshot(join(dir, 'snapshot'), originals, companies);
  companyNames = Array.from({ length: companies }, (_, c) => companyName(c));
  const engine = openEngine({ rateLimit: false } as Parameters<typeof openEngine>[0]);
  await engine.load(set.dir, { strict: true });
  const { api_key } = await createAccount(engine, { name: 'bench' });
  const ids = new Map(originals.map((o) => [o.entity, prospectIdOf(o.entity)]));
  const sets: [string, LabelledQuery[]][] = [
    ['febrl 4', febrlQueries(dups, set)],
    ['name only', nameOnlyQueries(dups, set)],
    ['name + e-mail', nameEmailQueries(dups, set)],
  ];
  // Warm the indexes once (built lazily on the first match), outside the timed runs.
  matchProspectRows(engine, [{ full_name: 'warm up', company_name: companyName(0) }]);
  console.log(
    `\n## ${originals.length.toLocaleString('en-US')} persons in ${companies} compan${companies > 1 ? 'ies' : 'y'}\n`,
  );
  for (const [name, qs] of sets) {
    const truths = qs.map((q) => q.truth);
    await viaFacade(engine, api_key, qs.slice(0, 1000)); // warm-up (JIT), not timed
    const ours = await viaFacade(engine, api_key, qs);
    const exact = exactMap(set, qs, ids);
    const duck = await duckdbJw(set, qs, ids);
    console.log(`### ${name} (${qs.length} queries)\n`);
    console.log('| matcher | P | R | F1 | rows/s |\n|---|---|---|---|---|');
    console.log(line('prospectdb (default)', score(truths, ours.answers), ours.rowsPerSec));
    console.log(line('exact map of name keys', score(truths, exact)));
    let bestJw = { t: 0, q: score(truths, duck.at(0.9)) };
    for (const t of [0.8, 0.85, 0.9, 0.92, 0.94, 0.96]) {
      const q = score(truths, duck.at(t));
      if (q.f1 > bestJw.q.f1) bestJw = { t, q };
    }
    console.log(line(`DuckDB Jaro-Winkler (best threshold ${bestJw.t})`, bestJw.q, duck.rowsPerSec));
    const ftsAnswers = ftsTop1(set, qs, ids);
    const flexAnswers = flexTop1(set, qs, ids);
    console.log(line('SQLite FTS5 trigram top-1 (within the company)', score(truths, ftsAnswers)));
    console.log(line('FlexSearch top-1 (within the company)', score(truths, flexAnswers)));
    const pr = (got: readonly (string | null)[]) => {
      const q = score(truths, got);
      return { precision: q.precision, recall: q.recall };
    };
    const ladder: CurveSet['ours'] = [];
    for (const t of CURVE)
      ladder.push({ threshold: t, ...pr((await viaFacade(engine, api_key, qs, t)).answers) });
    const curve: CurveSet = {
      label: `${name}, ${companies} compan${companies > 1 ? 'ies' : 'y'}`,
      rows: qs.length,
      default: pr(ours.answers),
      ours: ladder,
      peers: [
        { peer: 'exact map', label: 'exact', ...pr(exact) },
        { peer: 'SQLite FTS5 top-1', label: 'top-1', ...pr(ftsAnswers) },
        { peer: 'FlexSearch top-1', label: 'top-1', ...pr(flexAnswers) },
        ...JW_LADDER.map((t) => ({ peer: 'DuckDB Jaro-Winkler', label: `≥ ${t}`, ...pr(duck.at(t)) })),
      ],
    };
    const svg = curveSection((x) => console.log(x), 'persons', [curve]);
    console.log('');
    if (curves.at(-1)?.companies !== companies) curves.push({ companies, sets: [] });
    curves.at(-1)!.sets.push(curve);
    if (svgOut !== undefined && name === 'febrl 4' && companies === companiesArg[0])
      writeFileSync(svgOut, svg);
    // Per kind, default settings.
    const kinds = [...new Set(qs.map((q) => q.kind))];
    if (kinds.length > 1) {
      console.log('\nPer kind (default):\n\n| kind | n | P | R | F1 |\n|---|---|---|---|---|');
      for (const k of kinds) {
        const idx = qs.flatMap((q, i) => (q.kind === k ? [i] : []));
        const q = score(
          idx.map((i) => truths[i]!),
          idx.map((i) => ours.answers[i]!),
        );
        console.log(`| ${k} | ${idx.length} | ${fmt(q.precision)} | ${fmt(q.recall)} | ${fmt(q.f1)} |`);
      }
    }
    // Reliability of match_confidence: share right among matches by confidence band (explained run).
    const explained = matchProspectRows(
      engine,
      qs.map((q) => q.input),
      { explain: true, minConfidence: 0 },
    );
    console.log('\nReliability (min_confidence 0):\n\n| match_confidence | matches | right |\n|---|---|---|');
    for (const [lo, hi] of [
      [0, 0.5],
      [0.5, 0.7],
      [0.7, 0.8],
      [0.8, 0.9],
      [0.9, 1.01],
    ] as const) {
      const band = explained.flatMap((r, i) =>
        r.prospect_id !== null && r.match_confidence! >= lo && r.match_confidence! < hi ? [i] : [],
      );
      const right = band.filter((i) => explained[i]!.prospect_id === truths[i]).length;
      console.log(
        `| ${lo}–${Math.min(hi, 1)} | ${band.length} | ${band.length ? fmt(right / band.length) : '-'} |`,
      );
    }
    console.log('');
  }
  engine.close();
  rmSync(dir, { recursive: true, force: true });
}
if (jsonOut !== undefined)
  writeFileSync(jsonOut, JSON.stringify({ entity: 'persons', curves }, null, 1) + '\n');
