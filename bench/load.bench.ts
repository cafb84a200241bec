/**
 * Load throughput in rows/s (all streams), measured in one run with interleaved rounds so a busy shared
 * machine slows every task alike, and their ratios:
 * - parse only: read every file and `JSON.parse` each line on one thread (the floor of any JSON loader);
 * - DuckDB `read_json` into one table per stream (a columnar engine's bulk load, same files);
 * - `prospectdb load` end to end as the command runs it (load, build and save every index, settle the
 *   file) on each thread count of `--threads`: N threads are the calling thread and N - 1 workers
 *   (1: everything on one thread).
 * The snapshot (20k businesses, 200k prospects, 2k events by default) is generated once into a temp
 * folder outside the repo and deleted at the end.
 *
 *   node --import tsx bench/load.bench.ts [--prospects 200000] [--rounds 3] [--threads 1,2]
 *
 * Each figure is the best of its rounds (wall clock); the ratios are of those bests. The CPU column is
 * the process's CPU time (every thread, DuckDB's included) in that best round: on a machine shared with
 * other work, CPU per row shows what the wall clock hides, and wall × cores / CPU how busy the cores
 * were kept. The load runs the built package (`dist/`, `npm run build` first), as `prospectdb load` does:
 * under tsx every worker thread would compile the TypeScript it runs (~1 s of CPU per worker, charged to
 * the thread counts above 1). Without a build it falls back to the sources and says so.
 */
import type * as DuckDB from '@duckdb/node-api';
import type * as LibraryModule from '../src/index.js';
import type * as OpenModule from '../src/store/open.js';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateSnapshot } from '../tools/generate/index.js';
import { STREAMS } from '../src/snapshot/files.js';
import { readBatches } from '../src/snapshot/read.js';

type Library = typeof LibraryModule;
type Open = typeof OpenModule;
const built = new URL('../dist/', import.meta.url);
const fromBuild = existsSync(fileURLToPath(new URL('index.js', built)));
const { openEngine, buildIndexesThreaded } = (await import(
  fromBuild ? new URL('index.js', built).href : '../src/index.js'
)) as Library;
const { settleSnapshotFile } = (await import(
  fromBuild ? new URL('store/open.js', built).href : '../src/store/open.js'
)) as Open;
if (!fromBuild)
  console.error('no dist/ (npm run build): loading from the sources, workers compile TypeScript');

const { values } = parseArgs({
  options: {
    prospects: { type: 'string', default: '200000' },
    rounds: { type: 'string', default: '3' },
    threads: { type: 'string', default: '1,2' },
  },
});
const prospects = Number(values.prospects);
const rounds = Math.max(1, Number(values.rounds));
const threadCounts = values.threads.split(',').map(Number);

const work = mkdtempSync(join(tmpdir(), 'pdb-load-bench-'));
const dir = join(work, 'snapshot');
await generateSnapshot({
  dir,
  businesses: Math.round(prospects / 10),
  prospects,
  events: Math.round(prospects / 100),
  seed: 7,
  format: 'jsonl',
});
const files = STREAMS.map((s) => ({ stream: s, path: join(dir, `${s}.jsonl`) }));

async function parseOnly(): Promise<number> {
  let rows = 0;
  for (const f of files) for await (const batch of readBatches(f.path, 'jsonl')) rows += batch.length;
  return rows;
}

type DuckModule = typeof DuckDB;
let duck: DuckModule | null = null;
try {
  duck = (await import('@duckdb/node-api')) as DuckModule;
} catch {
  console.error('@duckdb/node-api not installed: no DuckDB baseline');
}

async function duckdbLoad(): Promise<void> {
  const path = join(work, 'duck.db');
  rmSync(path, { force: true });
  rmSync(`${path}.wal`, { force: true });
  const instance = await duck!.DuckDBInstance.create(path);
  const connection = await instance.connect();
  for (const f of files) {
    await connection.run(
      `CREATE TABLE ${f.stream} AS SELECT * FROM read_json('${f.path}', format = 'newline_delimited')`,
    );
  }
  connection.closeSync();
  instance.closeSync();
}

/** Per task: the best round's wall ms, its CPU ms, and (prospectdb) the ms of its rows and of its indexes. */
interface Round {
  ms: number;
  cpu: number;
  rowsMs?: number;
  indexMs?: number;
}

/** What `prospectdb load` does: load, build and save every index, close, settle the file. */
async function prospectdbLoad(threads: number): Promise<Partial<Round>> {
  const path = join(work, 'load.db');
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
  const started = performance.now();
  const engine = openEngine({ path });
  await engine.load(dir, { threads });
  const rowsMs = performance.now() - started;
  const indexMs = await buildIndexesThreaded(engine, { threads });
  await engine.state.close();
  engine.close();
  settleSnapshotFile(path);
  fileBytes = statSync(path).size;
  return { rowsMs, indexMs };
}
let fileBytes = 0;

const rows = await parseOnly();
const PARSE = 'parse only (read + JSON.parse, 1 thread)';
const DUCK = 'DuckDB read_json into tables';
const loadTask = (t: number) => `prospectdb load, threads ${t}`;
const tasks: [string, () => Promise<unknown>][] = [
  [PARSE, parseOnly],
  ...(duck ? [[DUCK, duckdbLoad] as [string, () => Promise<void>]] : []),
  ...threadCounts.map((t) => [loadTask(t), () => prospectdbLoad(t)] as [string, () => Promise<unknown>]),
];
const best = new Map<string, Round>();
for (let r = 0; r < rounds; r++) {
  for (const [name, run] of tasks) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const parts = (await run()) as Partial<Round> | number | undefined;
    const used = process.cpuUsage(cpu);
    const round: Round = {
      ms: performance.now() - started,
      cpu: (used.user + used.system) / 1000,
      ...(typeof parts === 'object' ? parts : {}),
    };
    if (round.ms < (best.get(name)?.ms ?? Infinity)) best.set(name, round);
  }
}
const rate = (name: string) => rows / ((best.get(name)?.ms ?? NaN) / 1000);
const ratio = (a: number, b: number) => +(a / b).toFixed(2);
const duckRate = duck ? rate(DUCK) : NaN;
const oneThread = rate(loadTask(1));
const s = (ms: number | undefined) => (ms === undefined ? '' : +(ms / 1000).toFixed(2));
console.table(
  tasks.map(([name]) => {
    const b = best.get(name)!;
    return {
      task: name,
      'rows/s': Math.round(rate(name)),
      's (best)': s(b.ms),
      'rows s': s(b.rowsMs),
      'indexes s': s(b.indexMs),
      'CPU s': s(b.cpu),
      'CPU µs/row': Math.round((b.cpu * 1000) / rows),
      '× DuckDB': ratio(rate(name), duckRate),
      '× threads 1': ratio(rate(name), oneThread),
      '× parse only': ratio(rate(name), rate(PARSE)),
    };
  }),
);
const bytes = files.reduce((n, f) => n + statSync(f.path).size, 0);
console.log(
  `${rows.toLocaleString('en-US')} rows (${(bytes / 1e6).toFixed(0)} MB of JSON Lines), best of ${rounds} ` +
    `interleaved rounds, ${availableParallelism()} cores; load average (1 min) ${(loadavg()[0] ?? 0).toFixed(2)}; ` +
    `prospectdb file ${(fileBytes / 1e6).toFixed(0)} MB (${ratio(fileBytes, bytes)}× the JSON, saved indexes included); ` +
    `library from ${fromBuild ? 'dist/ (built)' : 'src/ (under tsx)'}`,
);
rmSync(work, { recursive: true, force: true });
