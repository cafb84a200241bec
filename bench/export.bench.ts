/**
 * Export throughput and memory: every prospect (full records) to Parquet, JSON Lines and CSV through
 * `exportProspects` + `writeExport`, beside two same-run baselines over the same rows with plain SQLite
 * (`SELECT wire … ORDER BY rowid`): the read alone, and the read + MessagePack decode + `JSON.stringify`
 * to a JSON Lines file (what a hand-written export would do).
 *
 *   node --expose-gc --import tsx bench/export.bench.ts [--prospects 200000] [--runs 2]
 *     [--db FILE] [--formats parquet,jsonl,csv] [--codecs snappy] [--out DIR]
 *
 * `--codecs snappy,none,lz4,zstd` runs the Parquet export once per page codec. `--out` is where the
 * files are written (and deleted after). With `--db` naming a file of someone else's, set
 * PROSPECTDB_STATE to a path of your own so the engine's state file is not made beside it.
 *
 * Records/s from each task's best run (tinybench, fixed iterations); RSS growth = peak anonymous
 * resident memory during a run (sampled every 5,000 records) minus the same before it, after a GC; it
 * includes SQLite's page cache (the engine sets 256 MiB) and the garbage V8 has not collected yet, so
 * the heap still held after the run (after a GC) is shown beside it. The database is
 * the search bench's (generated and loaded under bench/.data/ on first use), or `--db` (e.g. 1M
 * prospects from `prospectdb generate` + `prospectdb load`).
 */
import { closeSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { exportProspects } from '../src/core/export.js';
import { openEngine } from '../src/engine.js';
import { exportColumns } from '../src/export/columns.js';
import type { ParquetCodec } from '../src/export/parquet.js';
import { writeExport, type ExportFormat } from '../src/export/write.js';
import { prospectIndex } from '../src/indexes/prospects.js';
import { unpackWire } from '../src/store/wire.js';
import { BENCH_DATA, searchDatabase } from './search-db.js';

const { values: args } = parseArgs({
  options: {
    prospects: { type: 'string', default: '200000' },
    runs: { type: 'string', default: '2' },
    db: { type: 'string' },
    formats: { type: 'string', default: 'parquet,jsonl,csv' },
    codecs: { type: 'string', default: 'snappy' },
    out: { type: 'string' },
  },
});
const N = Number(args.prospects);
const RUNS = Number(args.runs);
const DATA = args.out ?? BENCH_DATA;

/** Anonymous resident memory (heap, buffers): the mmap-ed database pages a scan touches are file-backed
 * and dropped by the kernel at will, so total RSS mostly measured the file's size. */
const rss = () => {
  const status = readFileSync('/proc/self/status', 'utf8');
  return Number(/^RssAnon:\s+(\d+)/m.exec(status)?.[1] ?? NaN) * 1024;
};
/** CPU seconds of one thread (Linux: utime + stime in clock ticks of 10 ms), or 0 once it is gone. */
const taskCpu = (tid: string) => {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
};
/** CPU seconds of the whole process (every thread), of the main thread alone (its task id is the
 * process id) and of every other thread by task id (an export's worker threads: sampled while they
 * run, as they are gone at the end). On a shared machine the wall-clock rate depends on the CPU share
 * the bench gets; the CPU time does not. */
const cpu = () => {
  const u = process.cpuUsage();
  const threads = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task'))
    if (tid !== String(process.pid)) threads.set(tid, taskCpu(tid));
  return { all: (u.user + u.system) / 1e6, main: taskCpu(String(process.pid)), threads };
};
/** The busiest thread other than the main one during a run: per task id, the last CPU seen minus the
 * CPU at the start (0 for a thread started during the run). */
function busiest(start: ReturnType<typeof cpu>, seen: Map<string, number>) {
  let max = 0;
  for (const [tid, s] of seen) max = Math.max(max, s - (start.threads.get(tid) ?? 0));
  return max;
}
/** Samples the threads' CPU (at most every 100 ms) into `seen`. */
function sampler(seen: Map<string, number>) {
  let last = 0;
  return () => {
    const now = performance.now();
    if (now - last < 100) return;
    last = now;
    for (const [tid, s] of cpu().threads) seen.set(tid, Math.max(seen.get(tid) ?? 0, s));
  };
}
const heap = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
let heapBefore = 0;
function settle() {
  global.gc?.();
  global.gc?.();
  heapBefore = heap();
  return rss();
}
/** Records a run's wall time and CPU time (kept from the fastest run). */
function timed(r: Result, t: number, c: ReturnType<typeof cpu>, seen?: Map<string, number>) {
  const ms = performance.now() - t;
  if (ms >= r.bestMs) return;
  const now = cpu();
  r.bestMs = ms;
  r.cpuAll = now.all - c.all;
  r.cpuMain = now.main - c.main;
  r.cpuWorker = seen ? busiest(c, seen) : 0;
}
function retained(r: Result) {
  global.gc?.();
  global.gc?.();
  r.retained = Math.max(r.retained, heap() - heapBefore);
}

// The search bench's database (same name, same seed), built when missing, with its search indexes saved.
const file = await searchDatabase(N, { db: args.db, saveIndexes: true });
const engine = openEngine({ path: file, readonly: true });
prospectIndex(engine); // read the saved indexes outside the timers
const count = engine.info().counts.prospects;
const out = (name: string) => join(DATA, `export-${N}.${name}`);
const columns = exportColumns('prospects', 'full');

interface Result {
  bestMs: number;
  /** CPU seconds of the best run: every thread, the main thread, the busiest other thread. */
  cpuAll: number;
  cpuMain: number;
  cpuWorker: number;
  growth: number;
  /** JS heap + array buffers still held after the run, after a GC (what the export keeps). */
  retained: number;
  bytes: number;
}
const results = new Map<string, Result>();
function track(name: string) {
  let r = results.get(name);
  if (!r)
    results.set(
      name,
      (r = { bestMs: Infinity, cpuAll: 0, cpuMain: 0, cpuWorker: 0, growth: 0, retained: 0, bytes: 0 }),
    );
  return r;
}

async function ours(format: ExportFormat, codec?: ParquetCodec) {
  const r = track(`prospectdb export → ${format}${codec && codecs.length > 1 ? ` (${codec})` : ''}`);
  const before = settle();
  let peak = before;
  const seen = new Map<string, number>();
  const sample = sampler(seen);
  const c = cpu();
  const t = performance.now();
  const n = await writeExport(exportProspects(engine, { mode: 'full' }), {
    format,
    out: out(format),
    columns,
    codec,
    onRecord: (k) => {
      if (k % 5_000 === 0) {
        peak = Math.max(peak, rss());
        sample();
      }
    },
  });
  timed(r, t, c, seen);
  r.growth = Math.max(r.growth, Math.max(peak, rss()) - before);
  r.bytes = statSync(out(format)).size;
  retained(r);
  if (n !== count) throw new Error(`exported ${n} of ${count}`);
}

const READ = 'baseline: plain SQLite read (SELECT wire ORDER BY rowid)';
const BASE = 'baseline: SQLite read + decode + JSON.stringify → jsonl';

/** Baseline: plain SQLite read of the stored records, nothing else. */
function plainRead() {
  const r = track(READ);
  const before = settle();
  let peak = before;
  const c = cpu();
  const t = performance.now();
  let n = 0;
  let bytes = 0;
  for (const wire of engine.db
    .prepare('SELECT wire FROM prospects ORDER BY rowid')
    .pluck()
    .iterate() as Iterable<Buffer>) {
    bytes += wire.length;
    if (++n % 5_000 === 0) peak = Math.max(peak, rss());
  }
  timed(r, t, c);
  r.growth = Math.max(r.growth, Math.max(peak, rss()) - before);
  r.bytes = bytes;
  retained(r);
  if (n !== count) throw new Error(`read ${n} of ${count}`);
}

/** Baseline: plain SQLite read of the stored records, decoded, JSON.stringify to a file. */
function baseline() {
  const r = track(BASE);
  const before = settle();
  let peak = before;
  const path = out('baseline.jsonl');
  const fd = openSync(path, 'w');
  const c = cpu();
  const t = performance.now();
  let buffer = '';
  let n = 0;
  for (const wire of engine.db
    .prepare('SELECT wire FROM prospects ORDER BY rowid')
    .pluck()
    .iterate() as Iterable<Buffer>) {
    buffer += JSON.stringify(unpackWire('prospects', wire)) + '\n';
    if (buffer.length >= 1 << 16) {
      writeSync(fd, buffer);
      buffer = '';
    }
    if (++n % 5_000 === 0) peak = Math.max(peak, rss());
  }
  writeSync(fd, buffer);
  closeSync(fd);
  timed(r, t, c);
  r.growth = Math.max(r.growth, Math.max(peak, rss()) - before);
  r.bytes = statSync(path).size;
  retained(r);
  if (n !== count) throw new Error(`read ${n} of ${count}`);
}

const bench = new Bench({ iterations: RUNS, warmupIterations: 0, time: 0, warmup: false });
// The exports first: a task's peak memory and CPU time depend on what ran before it in the process (at
// 1M, a Parquet export measured 43 MB peak growth and 10 µs of main-thread CPU per record in a fresh
// process, 272 MB and 24 µs after the two baselines and two other exports).
const codecs = args.codecs.split(',') as ParquetCodec[];
for (const f of args.formats.split(',') as ExportFormat[]) {
  if (f === 'parquet') for (const codec of codecs) bench.add(`${f} ${codec}`, () => ours(f, codec));
  else bench.add(f, () => ours(f));
}
bench.add('read', plainRead).add('baseline', baseline);
await bench.run();
for (const t of bench.tasks) if (t.result.state === 'errored') throw t.result.error;

const read = results.get(READ)!;
const base = results.get(BASE)!;
const MB = 1024 * 1024;
console.log(`prospects: ${count.toLocaleString('en-US')}, runs: ${RUNS} (best run shown)`);
console.table(
  [...results].map(([name, r]) => ({
    workload: name,
    'records/s': Math.round((count / r.bestMs) * 1000).toLocaleString('en-US'),
    'vs read + decode + stringify': `${(base.bestMs / r.bestMs).toFixed(2)}×`,
    'vs plain read': `${(read.bestMs / r.bestMs).toFixed(2)}×`,
    'CPU s (all threads / main / busiest other)': `${r.cpuAll.toFixed(1)} / ${r.cpuMain.toFixed(1)} / ${r.cpuWorker.toFixed(1)}`,
    // CPU µs per record: what the rate on free cores is bound by (each thread ≤ 1 core, all ≤ 2).
    'main-thread CPU µs/record': ((r.cpuMain / count) * 1e6).toFixed(1),
    'all-threads CPU µs/record': ((r.cpuAll / count) * 1e6).toFixed(1),
    // The rate two free cores allow: every thread within one core, all threads within two.
    'records/s on 2 free cores (CPU bound)': Math.round(
      count / Math.max(r.cpuMain, r.cpuWorker, r.cpuAll / 2),
    ).toLocaleString('en-US'),
    'RssAnon growth MB (peak)': (r.growth / MB).toFixed(0),
    'heap retained MB (after GC)': (r.retained / MB).toFixed(1),
    'file MB': (r.bytes / MB).toFixed(1) + (r === read ? ' (read)' : ''),
    goal: name.includes('parquet') ? '≥ 100k records/s, RSS growth ≤ 200 MB (at 1M)' : '',
  })),
);
for (const f of ['parquet', 'jsonl', 'csv', 'baseline.jsonl']) rmSync(out(f), { force: true });
engine.close();
