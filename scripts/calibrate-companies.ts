/**
 * Fits the business-name confidence table (`src/core/match/company-confidence.generated.ts`) on labelled
 * real names kept apart from the evaluation:
 *
 *   node --import tsx scripts/calibrate-companies.ts [--check]
 *
 * The snapshot is every US listed-company name (`shared/data/real`, 10% held out); the queries are
 * variants of every kind written from one half of the names (`half: 0`), and the held-out names of that
 * half written the same ways (no right answer). The bench (`bench/match/real-companies.ts`) evaluates on
 * the other half and on the early-childhood organisations, which the fit never sees. Each query's best
 * guess (the library at `minConfidence: 0`) gives the answers weighed for it, each with a path, a raw
 * score and whether it was right. Per path, an isotonic (pool-adjacent-violators) fit of right against
 * raw, steps of fewer than ten answers joined to the step below, each step's share smoothed toward one
 * half by one right and one wrong answer, is the step function the matcher reads. Which answers a row
 * weighs may still read the table (a surer exact path ends the search), so the fit is repeated until
 * the table no longer moves.
 * `--check` exits 1 when the committed table differs from what the data give.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { realCompanySet, realDataDir, realEngine } from '../bench/match/real-data.js';
import { matchBusinessRow } from '../src/core/match/businesses.js';
import { COMPANY_CONFIDENCE } from '../src/core/match/company-confidence.generated.js';
import {
  useConfidenceTable,
  type ConfidencePath,
  type ConfidenceTable,
} from '../src/core/match/company-confidence.js';
import { companyContext } from '../src/core/match/company-search.js';

const OUT = fileURLToPath(new URL('../src/core/match/company-confidence.generated.ts', import.meta.url));
const check = process.argv.includes('--check');
const dir = realDataDir();
if (dir === null) throw new Error('shared/data/real not found');

/**
 * What a path is worth when the fitting data never take it (namesakes: the listed names are one per
 * name key), as the matcher had it before calibration.
 */
const PRIOR: ConfidenceTable = {
  exact: { from: [0], p: [0.97] },
  namesakes: { from: [0], p: [0.9] },
  fuzzy: { from: [0], p: [0.86] },
  abbreviated: { from: [0], p: [0.88] },
  other_form: { from: [0, 0.5, 1], p: [0.3, 0.4, 0.8] },
  words: { from: [0], p: [0.5] },
  guess_fuzzy: { from: [0], p: [0.5] },
  guess_namesakes: { from: [0, 0.5, 1], p: [0.3, 0.45, 0.9] },
  guess_retrieved: { from: [0], p: [0.3] },
};
/** Fewer answers than this on a path: its prior stands. */
const MIN_ANSWERS = 20;
/** Fewer answers than this in a step of the fit: it joins its neighbour. */
const MIN_BLOCK = 10;

const set = realCompanySet(dir, { perKind: 200, seed: 11, half: 0, childhood: 0, hard: true });
const engine = await realEngine(set.businesses);
const ids = engine.db.prepare('SELECT business_id FROM businesses ORDER BY rowid').pluck().all() as string[];

interface Sample {
  raw: number;
  right: number;
}

function samples(): Map<ConfidencePath, Sample[]> {
  const ctx = companyContext(engine, true, 0);
  const by = new Map<ConfidencePath, Sample[]>();
  for (const q of set.queries) {
    const v = matchBusinessRow(ctx, { name: q.name, domain: null, url: null, linkedin_url: null });
    if (v.kind !== 'match' || v.path === undefined || v.raw === undefined) continue;
    // Every answer weighed for the row counts for its own path, whichever won.
    for (const a of v.weighed ?? [{ pos: v.pos, path: v.path, raw: v.raw }]) {
      const list = by.get(a.path) ?? [];
      list.push({ raw: a.raw, right: ids[a.pos] === q.truth ? 1 : 0 });
      by.set(a.path, list);
    }
  }
  return by;
}

/** Isotonic fit (pool adjacent violators) of right against raw, as a smoothed step function. */
function fit(list: Sample[]): { from: number[]; p: number[] } {
  list.sort((a, b) => a.raw - b.raw);
  // Blocks of equal raw first, then merged while a block's share is above the next one's.
  const blocks: { from: number; right: number; n: number }[] = [];
  for (const s of list) {
    const last = blocks[blocks.length - 1];
    if (last !== undefined && last.from === s.raw) {
      last.right += s.right;
      last.n++;
    } else blocks.push({ from: s.raw, right: s.right, n: 1 });
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1]!;
      const a = blocks[blocks.length - 2]!;
      if (a.right / a.n < b.right / b.n) break;
      a.right += b.right;
      a.n += b.n;
      blocks.pop();
    }
  }
  // A step must rest on enough answers: a small one joins the step below it (the first, the one above),
  // so a high confidence is never read off a handful of answers.
  for (let i = 0; i < blocks.length && blocks.length > 1;) {
    const b = blocks[i]!;
    if (b.n >= MIN_BLOCK) {
      i++;
      continue;
    }
    const into = i > 0 ? blocks[i - 1]! : blocks[1]!;
    into.right += b.right;
    into.n += b.n;
    if (i === 0) into.from = b.from;
    blocks.splice(i, 1);
    if (i > 0) i--;
  }
  const from: number[] = [];
  const p: number[] = [];
  for (const b of blocks) {
    const share = Math.round(((b.right + 1) / (b.n + 2)) * 1000) / 1000;
    // Smoothing can reorder two small blocks: keep the step function non-decreasing.
    if (p.length > 0 && share <= (p[p.length - 1] as number)) continue;
    from.push(Math.round(b.from * 1000) / 1000);
    p.push(share);
  }
  from[0] = Math.min(from[0] as number, 0);
  return { from, p };
}

function calibrate(): ConfidenceTable {
  const by = samples();
  const out = { ...PRIOR };
  for (const path of Object.keys(PRIOR) as ConfidencePath[]) {
    const list = by.get(path) ?? [];
    if (list.length >= MIN_ANSWERS) out[path] = fit(list);
  }
  return out;
}

let table = COMPANY_CONFIDENCE;
for (let round = 0; round < 4; round++) {
  useConfidenceTable(table);
  const next = calibrate();
  const same = JSON.stringify(next) === JSON.stringify(table);
  if (process.env.DEBUG) process.stderr.write(`round ${round}: ${same ? 'fixed' : 'moved'}\n`);
  table = next;
  if (same) break;
}
engine.close();

const body = `// Generated by scripts/calibrate-companies.ts from shared/data/real (listed-company names, half 0): do not edit.
import type { ConfidenceTable } from './company-confidence-table.js';

export const COMPANY_CONFIDENCE: ConfidenceTable = ${JSON.stringify(table)};
`;
const text = await format(body, { ...(await resolveConfig(OUT)), filepath: OUT });
if (check) {
  if (readFileSync(OUT, 'utf8') !== text) {
    process.stderr.write(`${OUT} is stale: run node --import tsx scripts/calibrate-companies.ts\n`);
    process.exit(1);
  }
} else {
  writeFileSync(OUT, text);
  process.stderr.write(`wrote ${OUT}\n`);
  for (const [path, t] of Object.entries(table))
    process.stderr.write(`${path}: ${t.from.map((f, i) => `${f}→${t.p[i]}`).join(' ')}\n`);
}
