/**
 * Compact records (schema 5) against the layout before them, in the same run over the same snapshot
 * (n prospects, n / 5 businesses, n / 10 events, seed 7, JSON Lines):
 * - bytes per record by table (SQLite's `dbstat`: each table with its indexes) against the JSON bytes
 *   per record of its stream, and the whole file against the whole snapshot;
 * - the decode of a page of 100 full records (the stored `wire` blobs of 100 random rows, read before
 *   the timer: what `core/records.ts` decodes), p50/p99;
 * - fetch p50/p99 through the core (read + decode of 100 random rows) and through `engine.handle` (v1
 *   page of 100 full records), `records-measure.ts` run on each file by the code that wrote it.
 * The baseline file is loaded, and measured, by `main` at 288dd0c: a tree of it is made with
 * `git archive` in a temp folder (node_modules linked to this one's), removed when the bench ends.
 *
 *   node --import tsx bench/records.bench.ts [--n 200000] [--seconds 3]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { Bench } from 'tinybench';
import { openEngine } from '../src/engine.js';
import { generateSnapshot } from '../tools/generate/index.js';
import { SCHEMA_VERSION } from '../src/store/schema.js';
import { unpackWire, wireCodec } from '../src/store/wire.js';
import { measureFetch, type Latency } from './records-measure.js';

const { values } = parseArgs({
  options: { n: { type: 'string', default: '200000' }, seconds: { type: 'string', default: '3' } },
});
const n = Number(values.n);
const seconds = Number(values.seconds);
const ROOT = join(import.meta.dirname, '..');
const DATA = join(import.meta.dirname, '.data');
const BASE_COMMIT = '288dd0c';
const OLD_TREE = mkdtempSync(join(tmpdir(), `prospectdb-${BASE_COMMIT}-`));
process.on('exit', () => rmSync(OLD_TREE, { recursive: true, force: true }));
mkdirSync(DATA, { recursive: true });
const log = (line: string) => console.error(line);
const secondsSince = (t: number) => ((performance.now() - t) / 1000).toFixed(1);

// The snapshot, uncompressed: its bytes are the JSON the file is compared with.
const snapshot = join(DATA, `records-snapshot-${n}`);
if (!existsSync(join(snapshot, 'manifest.json'))) {
  const t = performance.now();
  await generateSnapshot({
    dir: snapshot,
    businesses: Math.round(n / 5),
    prospects: n,
    events: Math.round(n / 10),
    seed: 7,
    format: 'jsonl',
  });
  log(`generated ${snapshot} in ${secondsSince(t)}s`);
}

// The baseline tree and its loader.
{
  const archive = execFileSync('git', ['-C', ROOT, 'archive', BASE_COMMIT], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', OLD_TREE], { input: archive });
  symlinkSync(join(ROOT, 'node_modules'), join(OLD_TREE, 'node_modules'));
}
copyFileSync(join(import.meta.dirname, 'records-measure.ts'), join(OLD_TREE, 'bench', 'records-measure.ts'));
const OLD_LOAD = join(OLD_TREE, 'bench', 'records-load.ts');
writeFileSync(
  OLD_LOAD,
  `import { openEngine } from '../src/engine.js';
const e = openEngine({ path: process.argv[2]! });
await e.load(process.argv[3]!);
e.close();
`,
);

const files = {
  old: join(DATA, `records-main-${n}.db`),
  new: join(DATA, `records-v${SCHEMA_VERSION}-${n}.db`),
};
const loadSeconds: Record<string, string> = {};
if (!existsSync(files.old)) {
  const t = performance.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', OLD_LOAD, files.old, snapshot], {
    cwd: OLD_TREE,
    stdio: 'inherit',
  });
  if (run.status !== 0) throw new Error(`baseline load failed (${run.status})`);
  loadSeconds.old = secondsSince(t);
}
if (!existsSync(files.new)) {
  const t = performance.now();
  const e = openEngine({ path: files.new });
  await e.load(snapshot);
  e.close();
  loadSeconds.new = secondsSince(t);
}
if (loadSeconds.old || loadSeconds.new) {
  log(`loaded: main ${loadSeconds.old ?? '(cached)'} s, compact ${loadSeconds.new ?? '(cached)'} s`);
}

// --- Size -----------------------------------------------------------------------------------------
const jsonBytes: Record<string, number> = {};
for (const f of readdirSync(snapshot)) {
  const stream = f.replace(/\.jsonl$/, '');
  if (stream !== f) jsonBytes[stream] = statSync(join(snapshot, f)).size;
}
const jsonTotal = Object.values(jsonBytes).reduce((a, b) => a + b, 0);

interface Sizes {
  file: number;
  tables: Record<string, number>;
  rows: Record<string, number>;
}
function sizes(path: string): Sizes {
  const db = new Database(path, { readonly: true });
  try {
    const owner = new Map<string, string>();
    for (const r of db.prepare('SELECT name, tbl_name FROM sqlite_master').all() as {
      name: string;
      tbl_name: string;
    }[]) {
      owner.set(r.name, r.tbl_name);
    }
    const tables: Record<string, number> = {};
    for (const r of db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all() as {
      name: string;
      bytes: number;
    }[]) {
      const t = owner.get(r.name) ?? r.name;
      const key = ['businesses', 'prospects', 'events', 'match_keys'].includes(t) ? t : 'other';
      tables[key] = (tables[key] ?? 0) + r.bytes;
    }
    const rows: Record<string, number> = {};
    for (const t of ['businesses', 'prospects', 'events']) {
      rows[t] = db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number;
    }
    return { file: statSync(path).size, tables, rows };
  } finally {
    db.close();
  }
}
const size = { old: sizes(files.old), new: sizes(files.new) };
const records = size.new.rows.businesses! + size.new.rows.prospects! + size.new.rows.events!;
console.log(
  `\nsize: ${n} prospects, ${size.new.rows.businesses} businesses, ${size.new.rows.events} events; ` +
    `JSON ${(jsonTotal / 1e6).toFixed(1)} MB (${Math.round(jsonTotal / records)} B per record)`,
);
console.table(
  ['prospects', 'businesses', 'events', 'match_keys', 'other'].map((t) => {
    const rows = size.new.rows[t] ?? size.new.rows.prospects!;
    const json = jsonBytes[t];
    const per = (s: Sizes) => Math.round((s.tables[t] ?? 0) / rows);
    return {
      table: t === 'match_keys' || t === 'other' ? `${t} (per prospect)` : t,
      'JSON B/record': json ? Math.round(json / rows) : '',
      'main B/record': per(size.old),
      'compact B/record': per(size.new),
      'compact / JSON': json ? (per(size.new) / (json / rows)).toFixed(2) : '',
      'compact / main': (per(size.new) / per(size.old)).toFixed(2),
    };
  }),
);
console.log(
  `file: main ${(size.old.file / 1e6).toFixed(1)} MB = ${(size.old.file / jsonTotal).toFixed(2)}× JSON; ` +
    `compact ${(size.new.file / 1e6).toFixed(1)} MB = ${(size.new.file / jsonTotal).toFixed(2)}× JSON ` +
    `(${Math.round(size.new.file / records)} B per record; ${(size.new.file / size.old.file).toFixed(2)}× main)`,
);

// --- Decode of a page of 100 full records -----------------------------------------------------------
function wirePages(path: string, table: string, count: number): Buffer[][] {
  const db = new Database(path, { readonly: true });
  try {
    const max = db.prepare(`SELECT max(rowid) FROM ${table}`).pluck().get() as number;
    const read = db.prepare(`SELECT wire FROM ${table} WHERE rowid = ?`).pluck();
    let s = 12345;
    const next = () => (s = (s * 1103515245 + 12345) >>> 0) % max;
    return Array.from({ length: count }, () =>
      Array.from({ length: 100 }, () => read.get(1 + next()) as Buffer),
    );
  } finally {
    db.close();
  }
}
const decode = new Bench({ time: seconds * 1000, warmup: true });
for (const table of ['prospects', 'businesses'] as const) {
  const oldPages = wirePages(files.old, table, 64);
  const newPages = wirePages(files.new, table, 64);
  let i = 0;
  decode
    .add(`${table}: main (keyed maps)`, () => {
      for (const w of oldPages[i++ & 63]!) wireCodec.unpack(w);
    })
    .add(`${table}: compact (value arrays)`, () => {
      for (const w of newPages[i++ & 63]!) unpackWire(table, w);
    });
}
await decode.run();
const us = (ms: number) => Math.round(ms * 1000);
console.log('\ndecode of a page of 100 full records (µs)');
console.table(
  decode.tasks.map((t) => {
    const l = (t.result as { latency: Latency }).latency;
    return { case: t.name, p50: us(l.p50), p99: us(l.p99) };
  }),
);

// --- Fetch -------------------------------------------------------------------------------------------
const child = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    join(OLD_TREE, 'bench', 'records-measure.ts'),
    '--db',
    files.old,
    '--seconds',
    String(seconds),
  ],
  { cwd: OLD_TREE, encoding: 'utf8', maxBuffer: 1 << 26 },
);
if (child.status !== 0) throw new Error(`baseline fetch failed: ${child.stderr}`);
const oldFetch = JSON.parse(child.stdout.trim().split('\n').pop()!) as Record<string, Latency>;
const newFetch = await measureFetch(files.new, seconds);
console.log('\nfetch (µs): main = the layout before schema 5, measured by main; compact = this tree');
console.table(
  Object.keys(newFetch).map((name) => ({
    case: name,
    'main p50': us(oldFetch[name]!.p50),
    'main p99': us(oldFetch[name]!.p99),
    'compact p50': us(newFetch[name]!.p50),
    'compact p99': us(newFetch[name]!.p99),
    'p50 compact / main': (newFetch[name]!.p50 / oldFetch[name]!.p50).toFixed(2),
  })),
);
