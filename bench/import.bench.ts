/**
 * Cold start of the package: importing `prospectdb` (and `prospectdb/server`) in a new process, and
 * `prospectdb --help`, beside same-run baselines: Node starting with nothing, importing better-sqlite3
 * alone, importing zod alone (every schema of the package is a zod schema). Each sample is a new Node
 * process; tinybench times it from spawn to exit, and the child reports the wall and CPU milliseconds
 * of the import alone (CPU time is the steadier figure on a busy machine). `--before DIR` adds the
 * same entry and CLI of another built checkout (e.g. `git worktree add /tmp/main main && (cd /tmp/main
 * && npm ci)`), for before/after figures in one run.
 *
 *   npm run build && node --import tsx bench/import.bench.ts [--runs 9] [--before DIR]
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { promisify } from 'node:util';
import { Bench } from 'tinybench';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '9' }, before: { type: 'string' } },
});
const runs = Number(values.runs);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);
if (!existsSync(join(ROOT, 'dist/index.js'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}

/** The child's own figures for one import: wall and CPU (user + system) milliseconds. */
const timedImport = (specifier: string) =>
  `const c = process.cpuUsage(), t = performance.now(); await import(${JSON.stringify(specifier)});` +
  `const d = process.cpuUsage(c); process.stdout.write(JSON.stringify({ ms: performance.now() - t, cpu: (d.user + d.system) / 1000 }));`;

interface Target {
  name: string;
  args: string[];
  /** The child prints its import figures (false for the CLI, timed from spawn to exit only). */
  reports: boolean;
}
const targets: Target[] = [
  { name: 'node, nothing imported (baseline)', args: ['-e', '0'], reports: false },
  {
    name: 'better-sqlite3 alone (baseline)',
    args: ['--input-type=module', '-e', timedImport('better-sqlite3')],
    reports: true,
  },
  { name: 'zod alone (baseline)', args: ['--input-type=module', '-e', timedImport('zod')], reports: true },
  {
    name: "import('prospectdb')",
    args: ['--input-type=module', '-e', timedImport('prospectdb')],
    reports: true,
  },
  {
    name: "import('prospectdb/server')",
    args: ['--input-type=module', '-e', timedImport('prospectdb/server')],
    reports: true,
  },
  { name: 'prospectdb --help', args: ['dist/cli/main.js', '--help'], reports: false },
];
if (values.before) {
  const dir = resolve(values.before);
  const entry = pathToFileURL(join(dir, 'dist/index.js')).href;
  targets.push(
    {
      name: `before: import('prospectdb') (${values.before})`,
      args: ['--input-type=module', '-e', timedImport(entry)],
      reports: true,
    },
    {
      name: `before: prospectdb --help (${values.before})`,
      args: [join(dir, 'dist/cli/main.js'), '--help'],
      reports: false,
    },
  );
}

const reported = new Map<string, { ms: number[]; cpu: number[] }>(
  targets.map((t) => [t.name, { ms: [], cpu: [] }]),
);
const bench = new Bench({ iterations: runs, time: 0, warmup: false });
for (const target of targets)
  bench.add(target.name, async () => {
    const { stdout } = await run(process.execPath, target.args, { cwd: ROOT });
    if (!target.reports) return;
    const r = JSON.parse(stdout) as { ms: number; cpu: number };
    reported.get(target.name)!.ms.push(r.ms);
    reported.get(target.name)!.cpu.push(r.cpu);
  });
await bench.run();

const median = (xs: number[]) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const round = (x: number) => (Number.isNaN(x) ? '' : Math.round(x));
const sqlite = median(reported.get(targets[1]!.name)!.cpu);
const rows = bench.tasks.map((t) => {
  const r = reported.get(t.name)!;
  const latency = (t.result as { latency?: { p50: number } } | undefined)?.latency;
  return {
    target: t.name,
    'process p50 ms': round(latency?.p50 ?? NaN),
    'import ms (median)': round(median(r.ms)),
    'import CPU ms (median)': round(median(r.cpu)),
    'CPU × better-sqlite3': r.cpu.length ? (median(r.cpu) / sqlite).toFixed(1) : '',
  };
});
console.table(rows);
console.log(`${runs} new processes per target; process = spawn to exit, import = the child's own timer.`);

// Where the entry's import time goes: the same modules imported in dependency order in one process,
// each step's CPU time beyond the steps before it (median over new processes).
const STEPS: readonly (readonly [string, ...string[]])[] = [
  ['zod', 'zod'],
  ['better-sqlite3, msgpackr', 'better-sqlite3', 'msgpackr'],
  [
    'request and record schemas (zod)',
    'schemas/records.js',
    'schemas/search.js',
    'schemas/match.js',
    'schemas/export.js',
  ],
  ['tldts', 'tldts'],
  ['libphonenumber-js/max', 'libphonenumber-js/max'],
  ['normalise/ (country-name tables, legal forms, nicknames)', 'normalise/index.js'],
  ['store/ open, migrate, codec', 'store/open.js'],
  [
    'core/ and indexes/ (fetch, stats, autocomplete, match, export)',
    'core/fetch.js',
    'core/stats.js',
    'core/autocomplete.js',
    'core/match/index.js',
    'core/match/evaluate.js',
    'core/export.js',
    'core/warm.js',
  ],
  ['export/write.ts with hyparquet-writer', 'export/write.js'],
  ['store/load.ts', 'store/load.js'],
  ['engine.ts with the facade, accounts, jobs, webhooks', 'engine.js'],
  ['the rest of index.js', 'index.js'],
];
const stepChild =
  `const dist = ${JSON.stringify(pathToFileURL(join(ROOT, 'dist')).href + '/')}; const out = [];` +
  `let prev = process.cpuUsage();` +
  `for (const mods of ${JSON.stringify(STEPS.map(([, ...mods]) => mods))}) {` +
  `  for (const m of mods) await import(m.endsWith('.js') ? dist + m : m);` +
  `  const d = process.cpuUsage(prev); prev = process.cpuUsage(); out.push((d.user + d.system) / 1000); }` +
  `process.stdout.write(JSON.stringify(out));`;
const stepRuns: number[][] = [];
for (let r = 0; r < runs; r++) {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', stepChild], { cwd: ROOT });
  stepRuns.push(JSON.parse(stdout) as number[]);
}
console.table(
  STEPS.map(([name], i) => ({
    'import step': name,
    'CPU ms (median)': round(median(stepRuns.map((s) => s[i]!))),
  })),
);
