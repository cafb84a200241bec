/**
 * From process start to the first answer of each kind (fetch, stats, autocomplete, a 50-row business
 * match, a 50-row prospect match), each in a new process, for this build beside a baseline build over a
 * file holding the same data, plus RSS at the answer. Both builds are compiled JS (`tsc -p
 * tsconfig.build.json --outDir DIR`), run by the same child (`open-first-child.ts`, compiled to plain JS
 * here so no loader is timed), so the only difference is the code under test. The files are opened read-only and
 * are not changed.
 *
 *   node --import tsx bench/open.bench.ts --dist DIR --db FILE --base-dist DIR --base-db FILE [--reps 3]
 *     [--kinds fetch,stats,autocomplete,business-match,prospect-match]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import ts from 'typescript';
import { matchRows } from './sample-requests.js';

const { values } = parseArgs({
  options: {
    dist: { type: 'string' },
    db: { type: 'string' },
    'base-dist': { type: 'string' },
    'base-db': { type: 'string' },
    reps: { type: 'string', default: '3' },
    kinds: { type: 'string', default: 'fetch,stats,autocomplete,business-match,prospect-match' },
  },
});
const { dist, db } = values;
const baseDist = values['base-dist'];
const baseDb = values['base-db'];
if (!dist || !db || !baseDist || !baseDb) {
  console.error('usage: bench/open.bench.ts --dist DIR --db FILE --base-dist DIR --base-db FILE [--reps N]');
  process.exit(2);
}
const reps = Number(values.reps);
const kinds = values.kinds.split(',');

const plain = new Database(db, { readonly: true });
const { businesses, prospects } = matchRows(plain);
const prospectCount = plain.prepare('SELECT count(*) FROM prospects').pluck().get() as number;
const businessCount = plain.prepare('SELECT count(*) FROM businesses').pluck().get() as number;
plain.close();
const dir = mkdtempSync(join(tmpdir(), 'pdb-open-bench-'));
const rowsFile = join(dir, 'rows.json');
writeFileSync(rowsFile, JSON.stringify({ businesses, prospects }));

interface Sample {
  importMs: number;
  openMs: number;
  answerMs: number;
  size: number;
  rss: number;
}
const child = join(dir, 'open-first-child.mjs');
const childSource = readFileSync(new URL('./open-first-child.ts', import.meta.url), 'utf8');
writeFileSync(
  child,
  ts.transpileModule(childSource, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText,
);
function once(build: string, file: string, kind: string): Sample {
  const out = execFileSync(process.execPath, [child, build, file, kind, rowsFile], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return JSON.parse(out.trim().split('\n').at(-1) as string) as Sample;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;

console.error(`${businessCount} businesses, ${prospectCount} prospects; ${reps} runs each, alternating`);
const lines = [
  '| first answer | baseline ms | this ms | ratio | after import: baseline / this ms | baseline RSS MB | this RSS MB | this RSS B/prospect |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
];
for (const kind of kinds) {
  const base: Sample[] = [];
  const mine: Sample[] = [];
  for (let r = 0; r < reps; r++) {
    base.push(once(baseDist, baseDb, kind));
    mine.push(once(dist, db, kind));
    console.error(
      `${kind} #${r + 1}: baseline ${base.at(-1)!.answerMs.toFixed(0)} ms, this ${mine.at(-1)!.answerMs.toFixed(0)} ms ` +
        `(import ${mine.at(-1)!.importMs.toFixed(0)}, open ${(mine.at(-1)!.openMs - mine.at(-1)!.importMs).toFixed(0)})`,
    );
  }
  if (base[0]!.size !== mine[0]!.size)
    console.error(`${kind}: answers differ (${base[0]!.size} vs ${mine[0]!.size})`);
  const b = median(base.map((s) => s.answerMs));
  const m = median(mine.map((s) => s.answerMs));
  const bAfter = median(base.map((s) => s.answerMs - s.importMs));
  const mAfter = median(mine.map((s) => s.answerMs - s.importMs));
  const bRss = median(base.map((s) => s.rss));
  const mRss = median(mine.map((s) => s.rss));
  lines.push(
    `| ${kind} | ${b.toFixed(0)} | ${m.toFixed(0)} | ${(m / b).toFixed(2)} | ${bAfter.toFixed(0)} / ${mAfter.toFixed(0)} | ` +
      `${(bRss / 2 ** 20).toFixed(0)} | ` +
      `${(mRss / 2 ** 20).toFixed(0)} | ${(mRss / prospectCount).toFixed(0)} |`,
  );
}
console.log(lines.join('\n'));
rmSync(dir, { recursive: true, force: true });
