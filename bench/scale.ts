/**
 * prospectdb at scale: load, size, first answers and steady latency of a generated snapshot.
 *
 *   npm run build
 *   node --expose-gc --import tsx bench/scale.ts --businesses 100000 --prospects 1000000 [--events 100000]
 *     [--work DIR] [--dir SNAPSHOT_DIR] [--db FILE] [--runs 2] [--dist DIR] [--before DIR] [--first-only] [--huge-pages]
 *     [--out bench/results/scale-1m.json]
 *
 * Without --dir it generates the snapshot (seed 42, JSON Lines) into a new folder under --work (default:
 * the OS temp folder) and deletes that folder at the end; --dir reuses a generated snapshot, --db a
 * database already loaded from it (both are kept). The load runs `dist/cli/main.js load` in a child
 * process, so it is timed as a user runs it, indexes included. Everything timed runs the compiled
 * package in dist/ (or --dist DIR: another build, e.g. of the commit before, for before/after figures
 * over the same file), never this loader.
 *
 * It prints (stderr: progress; stdout: one JSON document, also written to --out):
 * - load: rows/s of the rows alone and end to end (rows, then building and saving every index);
 * - size: the database file beside the uncompressed JSON it was loaded from, its page size and free
 *   pages, and the bytes of each table, SQLite index (`dbstat`) and saved index part in it;
 * - first answers: for each kind (fetch businesses, fetch prospects, prospect stats, autocomplete, a
 *   50-row business match, a 50-row prospect match, events) a fresh `node` process imports
 *   `dist/index.js`, opens the file read-only and sends one request through `engine.handle`; the
 *   milliseconds since process start at the end of the import, of the open and of the answer, the
 *   process CPU time, and RSS, `--runs` times each. Baselines in the same run: `node -e 0`, and
 *   importing better-sqlite3 alone;
 * - RSS per prospect: one fresh process answers every kind in turn (the prospect match index loaded
 *   along the way), RSS after each;
 * - steady state in this process (read-only engine, `engine.handle`): fetch and stats p50/p99 over six
 *   filter sets, match rows/s in 50-row requests (business rows with a typo in every other name,
 *   prospect rows by name and employer).
 * The load average is recorded at the start and the end: on a shared machine, read a wall figure with
 * its CPU time and the baselines. `--before DIR` times the first answers of another build too (its
 * dist/ folder), each kind's child of one build right after the other's, over the same file
 * (`first_answer_before`): before/after figures from one run. `--first-only` stops after the first
 * answers (no RSS-per-kind process, no steady state). `--huge-pages` times each first answer once more
 * in a process started with `GLIBC_TUNABLES=glibc.malloc.hugetlb=1` (`first_answer_huge_pages`).
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import Database from 'better-sqlite3';
import type * as Package from '../src/index.js';
import { FETCH_FILTERS, matchRows } from './sample-requests.js';

const { values } = parseArgs({
  options: {
    businesses: { type: 'string', default: '100000' },
    prospects: { type: 'string', default: '1000000' },
    events: { type: 'string', default: '100000' },
    work: { type: 'string', default: tmpdir() },
    dir: { type: 'string' },
    db: { type: 'string' },
    runs: { type: 'string', default: '2' },
    requests: { type: 'string', default: '120' },
    out: { type: 'string' },
    dist: { type: 'string' },
    before: { type: 'string' },
    'first-only': { type: 'boolean', default: false },
    'huge-pages': { type: 'boolean', default: false },
  },
});
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = values.dist ? resolve(values.dist) : join(ROOT, 'dist');
const BEFORE = values.before ? resolve(values.before) : undefined;
for (const dist of [DIST, BEFORE]) {
  if (dist && !existsSync(join(dist, 'index.js'))) {
    console.error(`${dist}/index.js is missing: build it first (\`npm run build\`)`);
    process.exit(1);
  }
}
const runs = Number(values.runs);
const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
const started = { at: new Date().toISOString(), loadavg: load() };

// Everything made here lives in one folder of its own, deleted at the end (a given --dir or --db stays).
const work = mkdtempSync(join(resolve(values.work), 'prospectdb-scale-'));
const cleanup = () => rmSync(work, { recursive: true, force: true });
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    cleanup();
    process.exit(130);
  });

/** Runs `node ARGS` and resolves with its stderr (progress bars included) and exit code. */
function node(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; stderr: string; stdout: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? 1, stderr, stdout }));
  });
}

// 1. The snapshot.
let snapshot = values.dir ? resolve(values.dir) : join(work, 'snapshot');
if (!values.dir) {
  log(`generating ${values.businesses} businesses, ${values.prospects} prospects, ${values.events} events`);
  const t = performance.now();
  const r = await node([
    '--import',
    'tsx',
    'src/cli/main.ts',
    'generate',
    '--out',
    snapshot,
    '--businesses',
    values.businesses,
    '--prospects',
    values.prospects,
    '--events',
    values.events,
  ]);
  if (r.code !== 0) throw new Error(`generate failed: ${r.stderr}`);
  log(`generated in ${((performance.now() - t) / 1000).toFixed(0)} s`);
}
snapshot = resolve(snapshot);

/** Uncompressed bytes of each stream file (a .gz file is inflated to count them). */
async function jsonBytes(dir: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const name of readdirSync(dir).filter((f) => /\.jsonl(\.gz)?$/.test(f))) {
    const file = join(dir, name);
    if (!name.endsWith('.gz')) {
      out[name] = statSync(file).size;
      continue;
    }
    let n = 0;
    for await (const chunk of createReadStream(file).pipe(createGunzip())) n += (chunk as Buffer).length;
    out[name] = n;
  }
  return out;
}
const json = await jsonBytes(snapshot);
const jsonTotal = Object.values(json).reduce((a, b) => a + b, 0);

// 2. The load, as a user runs it: rows, then every index built and saved.
const db = values.db ? resolve(values.db) : join(work, 'scale.db');
let loadFigures: Record<string, number | string> | null = null;
if (!values.db || !existsSync(db)) {
  log(`loading into ${db}`);
  const t = performance.now();
  const r = await node([join(DIST, 'cli/main.js'), 'load', '--db', db, snapshot]);
  const wallS = (performance.now() - t) / 1000;
  if (r.code !== 0) throw new Error(`load failed: ${r.stderr.slice(-2000)}`);
  const m = /in ([\d.]+)s; search and match indexes built and saved in ([\d.]+)s/.exec(r.stderr);
  loadFigures = { wall_s: Number(wallS.toFixed(1)), rows_s: Number(m?.[1]), indexes_s: Number(m?.[2]) };
  log(
    `loaded in ${wallS.toFixed(0)} s (rows ${m?.[1]} s, indexes ${m?.[2]} s), load average ${load().join(' ')}`,
  );
}

const plain = new Database(db, { readonly: true });
const count = (table: string) => plain.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
const counts = { businesses: count('businesses'), prospects: count('prospects'), events: count('events') };
const rowsTotal = counts.businesses + counts.prospects + counts.events;
if (loadFigures) {
  loadFigures.rows_per_s = Math.round(rowsTotal / (loadFigures.rows_s as number));
  loadFigures.end_to_end_rows_per_s = Math.round(rowsTotal / (loadFigures.wall_s as number));
}
/** `name → bytes` from a query of (name, bytes), largest first; null when it cannot run (no `dbstat`). */
function bytesBy(sql: string): Record<string, number> | null {
  try {
    const rows = plain.prepare(sql).all() as { name: string; bytes: number }[];
    return Object.fromEntries(rows.map((r) => [r.name, r.bytes]));
  } catch {
    return null;
  }
}
/** Bytes per table (and index) from SQLite's own page accounting, when the build has `dbstat`. */
const tableBytes = () =>
  bytesBy('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC');
/** Bytes of each saved index and index part (the blobs of `index_cache`), largest first. */
const savedIndexBytes = () =>
  bytesBy('SELECT name, sum(length(data)) AS bytes FROM index_cache GROUP BY name ORDER BY bytes DESC');
const dbBytes = statSync(db).size;
const byTable = tableBytes();
const bySavedIndex = savedIndexBytes();
const pageSize = plain.pragma('page_size', { simple: true }) as number;
const freeBytes = (plain.pragma('freelist_count', { simple: true }) as number) * pageSize;

// Request rows for the answers, drawn from the data (the same rows in every process).
const { businesses: businessRows, prospects: prospectRows } = matchRows(plain);
const eventRow = plain
  .prepare(
    `SELECT entity_id, event_name FROM events WHERE entity_type = 'business' ORDER BY event_time DESC LIMIT 1`,
  )
  .get() as { entity_id: string; event_name: string } | undefined;
const word = (businessRows[0]?.name ?? 'acme').split(' ')[0]!.slice(0, 4);
plain.close();

const FILTERS = FETCH_FILTERS;
const KINDS = {
  'fetch businesses': {
    method: 'POST',
    path: '/v2/businesses',
    body: { mode: 'full', page_size: 100, filters: { country_code: { values: ['us'] } } },
  },
  'fetch prospects': {
    method: 'POST',
    path: '/v2/prospects',
    body: { mode: 'full', page_size: 100, filters: { has_contact_details: { value: 'email' } } },
  },
  stats: {
    method: 'POST',
    path: '/v2/prospects/stats',
    body: { filters: { job_level: { values: ['manager'] } } },
  },
  autocomplete: {
    method: 'GET',
    path: '/v2/autocomplete',
    query: { field: 'company_name', query: word },
  },
  'business match': {
    method: 'POST',
    path: '/v2/businesses/match',
    body: { businesses_to_match: businessRows },
  },
  'prospect match': {
    method: 'POST',
    path: '/v2/prospects/match',
    body: { prospects_to_match: prospectRows },
  },
  events: {
    method: 'POST',
    path: '/v2/businesses/events',
    body: {
      event_types: [eventRow?.event_name ?? 'new_funding_round'],
      business_ids: [eventRow?.entity_id ?? '0'.repeat(32)],
      timestamp_from: '2026-01-01',
      timestamp_to: '2027-01-01',
    },
  },
} as const;
type Kind = keyof typeof KINDS;

// 3. A paid key with credits enough for the whole run, in the state file beside the database.
const { openEngine } = (await import(pathToFileURL(join(DIST, 'index.js')).href)) as typeof Package;
const setup = openEngine({ path: db, readonly: true });
const { api_key } = await setup.accounts.create({
  name: 'scale-bench',
  credits: 1_000_000_000,
  account_type: 'paid',
  entitlements: ['*'],
});
await setup.state.close();
setup.close();
const requestFile = join(work, 'requests.json');
writeFileSync(requestFile, JSON.stringify({ api_key, kinds: KINDS }));

// 4. First answers, each from a new process.
const CHILD = `
const [dist, db, kinds, file] = process.argv.slice(2);
const { readFileSync } = await import('node:fs');
const t0 = performance.now();
const { openEngine } = await import(dist + '/index.js');
const importMs = performance.now();
const engine = openEngine({ path: db, readonly: true });
const openMs = performance.now();
const { api_key, kinds: all } = JSON.parse(readFileSync(file, 'utf8'));
const out = [];
let previous = performance.now();
for (const kind of kinds.split(',')) {
  const r = all[kind];
  const res = await engine.handle({ method: r.method, path: r.path, query: r.query, headers: { api_key }, body: r.body });
  const now = performance.now();
  const cpu = process.cpuUsage();
  out.push({ kind, status: res.status, bytes: JSON.stringify(res.body).length, ms: now, requestMs: now - previous,
    cpuMs: (cpu.user + cpu.system) / 1000, rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed });
  previous = now;
}
await engine.state.close();
engine.close();
process.stdout.write(JSON.stringify({ t0, importMs, openMs, answers: out }) + '\\n');
`;
const childFile = join(work, 'first-answer.mjs');
writeFileSync(childFile, CHILD);
interface Answer {
  kind: Kind;
  status: number;
  bytes: number;
  ms: number;
  requestMs: number;
  cpuMs: number;
  rss: number;
  heap: number;
}
interface ChildRun {
  t0: number;
  importMs: number;
  openMs: number;
  answers: Answer[];
}
async function child(kinds: readonly Kind[], dist = DIST, env?: NodeJS.ProcessEnv): Promise<ChildRun> {
  const r = await node([childFile, pathToFileURL(dist).href, db, kinds.join(','), requestFile], env);
  if (r.code !== 0) throw new Error(`first-answer child failed: ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as ChildRun;
}
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => {
  const s = sorted(xs);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const r1 = (x: number) => Number(x.toFixed(1));

async function timeBaseline(args: string[]): Promise<number> {
  const t = performance.now();
  const r = await node(args);
  if (r.code !== 0) throw new Error(r.stderr);
  return performance.now() - t;
}
const baselines = { node_e_0_ms: [] as number[], import_better_sqlite3_ms: [] as number[] };
type FirstAnswers = Record<
  string,
  {
    wall_ms: number[];
    import_ms: number[];
    open_ms: number[];
    cpu_ms: number[];
    rss_mb: number[];
    status: number;
  }
>;
const firstAnswers: FirstAnswers = {};
const firstAnswersBefore: FirstAnswers = {};
const firstAnswersHuge: FirstAnswers = {};
/**
 * `--huge-pages`: the same build in a process started with glibc's malloc asking for transparent huge
 * pages (what `prospectdb` commands do for themselves on large files, see docs/deployment.md).
 */
const HUGE_ENV = { ...process.env, GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' };
/** One first answer of `kind` from a new process on `dist`, added to `into`. */
async function firstAnswer(
  kind: Kind,
  dist: string,
  into: FirstAnswers,
  run: number,
  label: string,
  env?: NodeJS.ProcessEnv,
) {
  const c = await child([kind], dist, env);
  const a = c.answers[0]!;
  const f = (into[kind] ??= {
    wall_ms: [],
    import_ms: [],
    open_ms: [],
    cpu_ms: [],
    rss_mb: [],
    status: a.status,
  });
  f.wall_ms.push(r1(a.ms));
  f.import_ms.push(r1(c.importMs));
  f.open_ms.push(r1(c.openMs - c.importMs));
  f.cpu_ms.push(r1(a.cpuMs));
  f.rss_mb.push(r1(a.rss / 2 ** 20));
  if (a.status !== 200) log(`${label}${kind}: status ${a.status}`);
  log(
    `${label}first ${kind} #${run + 1}: ${a.ms.toFixed(0)} ms (import ${c.importMs.toFixed(0)}, CPU ${a.cpuMs.toFixed(0)}), load ${loadavg()[0]!.toFixed(1)}`,
  );
}
for (let run = 0; run < runs; run++) {
  baselines.node_e_0_ms.push(r1(await timeBaseline(['-e', '0'])));
  baselines.import_better_sqlite3_ms.push(
    r1(await timeBaseline(['--input-type=module', '-e', "await import('better-sqlite3')"])),
  );
  for (const kind of Object.keys(KINDS) as Kind[]) {
    // Before and after in turn, the order swapped every run: neither build always goes first.
    const order = BEFORE ? (run % 2 ? [BEFORE, DIST] : [DIST, BEFORE]) : [DIST];
    for (const dist of order)
      if (dist === DIST) await firstAnswer(kind, DIST, firstAnswers, run, '');
      else await firstAnswer(kind, dist, firstAnswersBefore, run, 'before: ');
    if (values['huge-pages']) await firstAnswer(kind, DIST, firstAnswersHuge, run, 'huge pages: ', HUGE_ENV);
  }
}

/** 5 and 6: RSS after every kind in one process, then the steady state in this process. */
async function later() {
  // 5. RSS after every kind in one process.
  const all = await child(Object.keys(KINDS) as Kind[]);
  const rssAfter = Object.fromEntries(
    all.answers.map((a) => [
      a.kind,
      { ms: r1(a.requestMs), rss_mb: r1(a.rss / 2 ** 20), heap_mb: r1(a.heap / 2 ** 20) },
    ]),
  );
  const peakRss = Math.max(...all.answers.map((a) => a.rss));
  log(
    `RSS after every kind: ${(peakRss / 2 ** 20).toFixed(0)} MB, ${(peakRss / counts.prospects).toFixed(0)} B/prospect`,
  );

  // 6. Steady state in this process.
  const engine = openEngine({ path: db, readonly: true, rateLimit: false } as never);
  const requests = Number(values.requests);
  async function latency(path: string, body: (i: number) => object) {
    const wall: number[] = [];
    for (let i = 0; i < requests + 6; i++) {
      const t = performance.now();
      const res = await engine.handle({ method: 'POST', path, headers: { api_key }, body: body(i) });
      if (res.status !== 200)
        throw new Error(`${path}: status ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      if (i >= 6) wall.push(performance.now() - t); // the first of each filter set warms its columns
    }
    const s = sorted(wall);
    const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
    return { p50_ms: Number(at(0.5).toFixed(2)), p99_ms: Number(at(0.99).toFixed(2)), requests: s.length };
  }
  const steady = {
    fetch_prospects: await latency('/v2/prospects', (i) => ({
      mode: 'full',
      page_size: 100,
      filters: FILTERS[i % FILTERS.length],
    })),
    fetch_businesses: await latency('/v2/businesses', (i) => ({
      mode: 'full',
      page_size: 100,
      filters: i % 2 ? { country_code: { values: ['us'] } } : {},
    })),
    prospect_stats: await latency('/v2/prospects/stats', (i) => ({ filters: FILTERS[i % FILTERS.length] })),
  };
  log(
    `fetch p50 ${steady.fetch_prospects.p50_ms} ms p99 ${steady.fetch_prospects.p99_ms} ms; stats p50 ${steady.prospect_stats.p50_ms} p99 ${steady.prospect_stats.p99_ms}`,
  );
  async function matchRate(path: string, key: string, rows: object[]) {
    // One request first: the first reads the saved match index, which the first-answer figures time.
    await engine.handle({ method: 'POST', path, headers: { api_key }, body: { [key]: rows } });
    const c = process.cpuUsage();
    const t = performance.now();
    let n = 0;
    for (let i = 0; i < 20; i++) {
      const res = await engine.handle({ method: 'POST', path, headers: { api_key }, body: { [key]: rows } });
      if (res.status !== 200) throw new Error(`${path}: status ${res.status}`);
      n += rows.length;
    }
    const d = process.cpuUsage(c);
    return {
      rows_per_s: Math.round(n / ((performance.now() - t) / 1000)),
      rows_per_cpu_s: Math.round(n / ((d.user + d.system) / 1e6)),
    };
  }
  const match = {
    business: await matchRate('/v2/businesses/match', 'businesses_to_match', businessRows),
    prospect: await matchRate('/v2/prospects/match', 'prospects_to_match', prospectRows),
  };
  log(`match rows/s: business ${match.business.rows_per_s}, prospect ${match.prospect.rows_per_s}`);
  await engine.state.close();
  engine.close();
  return {
    rss_after_every_kind: {
      by_kind: rssAfter,
      peak_mb: r1(peakRss / 2 ** 20),
      bytes_per_prospect: Math.round(peakRss / counts.prospects),
    },
    steady,
    match_50_row_requests: match,
  };
}
const after = values['first-only'] ? null : await later();

const summary = (xs: number[]) => ({ min: r1(Math.min(...xs)), median: r1(median(xs)), all: xs });
const firstSummary = (answers: FirstAnswers) =>
  Object.fromEntries(
    Object.entries(answers).map(([k, f]) => [
      k,
      {
        status: f.status,
        wall_ms: summary(f.wall_ms),
        import_ms: summary(f.import_ms),
        open_ms: summary(f.open_ms),
        cpu_ms: summary(f.cpu_ms),
        rss_mb: summary(f.rss_mb),
      },
    ]),
  );
const result = {
  bench: 'bench/scale.ts',
  commit,
  dist: values.dist ?? 'dist',
  machine: {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    memory_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  },
  started,
  finished: { at: new Date().toISOString(), loadavg: load() },
  counts,
  load: loadFigures,
  size: {
    json_bytes: jsonTotal,
    json_files: json,
    db_bytes: dbBytes,
    db_vs_json: Number((dbBytes / jsonTotal).toFixed(3)),
    page_size: pageSize,
    free_bytes: freeBytes,
    by_table: byTable,
    by_saved_index: bySavedIndex,
  },
  baselines: {
    node_e_0_ms: summary(baselines.node_e_0_ms),
    import_better_sqlite3_ms: summary(baselines.import_better_sqlite3_ms),
  },
  first_answer: firstSummary(firstAnswers),
  ...(values['huge-pages'] ? { first_answer_huge_pages: firstSummary(firstAnswersHuge) } : {}),
  ...(BEFORE
    ? { before: { dist: values.before }, first_answer_before: firstSummary(firstAnswersBefore) }
    : {}),
  ...after,
};
const text = JSON.stringify(result, null, 2);
if (values.out) {
  mkdirSync(join(values.out, '..'), { recursive: true });
  writeFileSync(values.out, text + '\n');
}
console.log(text);
