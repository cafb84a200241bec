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
 *     [--dist DIR[,DIR…]] [--dir SNAPSHOT_DIR]
 *
 * Each figure is the best of its rounds (wall clock); the ratios are of those bests. The CPU column is
 * the process's CPU time (every thread, DuckDB's included) in that best round: on a machine shared with
 * other work, CPU per row shows what the wall clock hides, and wall × cores / CPU how busy the cores
 * were kept. The load runs the built package (`dist/`, `npm run build` first), as `prospectdb load` does:
 * under tsx every worker thread would compile the TypeScript it runs (~1 s of CPU per worker, charged to
 * the thread counts above 1). Without a build it falls back to the sources and says so. `--dist` names
 * other builds instead (e.g. one of the commit before: before/after figures); with several, each round
 * loads with every build in turn, and each build's `× threads 1` is of its own 1-thread load. `--dir`
 * loads a snapshot folder already generated (kept) instead of generating one.
 */
import type * as DuckDB from '@duckdb/node-api';
import type * as LibraryModule from '../src/index.js';
import type * as OpenModule from '../src/store/open.js';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { generateSnapshot } from '../tools/generate/index.js';
import { STREAMS } from '../src/snapshot/files.js';
import { readBatches } from '../src/snapshot/read.js';

type Library = typeof LibraryModule;
type Open = typeof OpenModule;

const { values } = parseArgs({
  options: {
    prospects: { type: 'string', default: '200000' },
    rounds: { type: 'string', default: '3' },
    threads: { type: 'string', default: '1,2' },
    dist: { type: 'string' },
    dir: { type: 'string' },
  },
});

/** A build of the package the load runs (its folder's name tells the builds apart in the table). */
interface Build {
  label: string;
  openEngine: Library['openEngine'];
  buildIndexesThreaded: Library['buildIndexesThreaded'];
  settleSnapshotFile: Open['settleSnapshotFile'];
}
async function importBuild(dist: URL | undefined, label: string): Promise<Build> {
  const lib = (await import(dist ? new URL('index.js', dist).href : '../src/index.js')) as Library;
  const open = (await import(dist ? new URL('store/open.js', dist).href : '../src/store/open.js')) as Open;
  return {
    label,
    openEngine: lib.openEngine,
    buildIndexesThreaded: lib.buildIndexesThreaded,
    settleSnapshotFile: open.settleSnapshotFile,
  };
}
const built = new URL('../dist/', import.meta.url);
const fromBuild = values.dist !== undefined || existsSync(fileURLToPath(new URL('index.js', built)));
const builds: Build[] = [];
if (values.dist) {
  for (const d of values.dist.split(',')) {
    const url = pathToFileURL(resolve(d) + '/');
    if (!existsSync(fileURLToPath(new URL('index.js', url)))) {
      console.error(`${d}: no index.js (npm run build there first)`);
      process.exit(1);
    }
    builds.push(await importBuild(url, basename(resolve(d, '..')) + '/' + basename(resolve(d))));
  }
} else {
  builds.push(await importBuild(fromBuild ? built : undefined, ''));
  if (!fromBuild)
    console.error('no dist/ (npm run build): loading from the sources, workers compile TypeScript');
}

const prospects = Number(values.prospects);
const rounds = Math.max(1, Number(values.rounds));
const threadCounts = values.threads.split(',').map(Number);

const work = mkdtempSync(join(tmpdir(), 'pdb-load-bench-'));
const dir = values.dir ? resolve(values.dir) : join(work, 'snapshot');
if (!values.dir) {
  await generateSnapshot({
    dir,
    businesses: Math.round(prospects / 10),
    prospects,
    events: Math.round(prospects / 100),
    seed: 7,
    format: 'jsonl',
  });
}
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
async function prospectdbLoad(
  { openEngine, buildIndexesThreaded, settleSnapshotFile }: Build,
  threads: number,
): Promise<Partial<Round>> {
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
const loadTask = (t: number, b: Build) => `prospectdb load, threads ${t}${b.label ? ` (${b.label})` : ''}`;
const tasks: [string, () => Promise<unknown>][] = [
  [PARSE, parseOnly],
  ...(duck ? [[DUCK, duckdbLoad] as [string, () => Promise<void>]] : []),
  ...builds.flatMap((b) =>
    threadCounts.map((t) => [loadTask(t, b), () => prospectdbLoad(b, t)] as [string, () => Promise<unknown>]),
  ),
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
const oneThread = (name: string) => {
  const build = builds.find(
    (b) => name.startsWith('prospectdb') && name.endsWith(b.label ? `(${b.label})` : ''),
  );
  return build ? rate(loadTask(1, build)) : NaN;
};
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
      '× threads 1': ratio(rate(name), oneThread(name)),
      '× parse only': ratio(rate(name), rate(PARSE)),
    };
  }),
);
const bytes = files.reduce((n, f) => n + statSync(f.path).size, 0);
console.log(
  `${rows.toLocaleString('en-US')} rows (${(bytes / 1e6).toFixed(0)} MB of JSON Lines), best of ${rounds} ` +
    `interleaved rounds, ${availableParallelism()} cores; load average (1 min) ${(loadavg()[0] ?? 0).toFixed(2)}; ` +
    `prospectdb file ${(fileBytes / 1e6).toFixed(0)} MB (${ratio(fileBytes, bytes)}× the JSON, saved indexes included); ` +
    `library from ${values.dist ?? (fromBuild ? 'dist/ (built)' : 'src/ (under tsx)')}`,
);
rmSync(work, { recursive: true, force: true }); // never --dir: it is outside `work`
