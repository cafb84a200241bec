/** `evaluateMatches` and `prospectdb match --truth` on a labelled file built over the demo snapshot. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run as matchCli } from '../src/cli/commands/match.js';
import { matchBusinessRows, type MatchOptions } from '../src/core/match/index.js';
import { evaluateMatches, type Engine } from '../src/index.js';
import { demoEngine } from './support/demo.js';

let dir: string;
let dbPath: string;
let engine: Engine;
let rows: Record<string, string>[];
let truths: (string | null)[];
let ids: string[];
let prospects: { prospect_id: string; full_name: string; company_name: string }[];

const NONSENSE = ['Qwxyz Zzqv Holdings', 'Vrrmpt Oblique Kkq', 'Zzyzx Plorbic Labs', 'Xkcd Quuxbaz Fjord'];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pdb-eval-'));
  dbPath = join(dir, 'demo.db');
  engine = await demoEngine({ path: dbPath });
  const bs = engine.db
    .prepare('SELECT business_id, name, domain FROM businesses WHERE rowid <= 12 ORDER BY rowid')
    .all() as { business_id: string; name: string; domain: string }[];
  ids = bs.map((b) => b.business_id);
  // 8 domains labelled right, 2 domains labelled with another business (wrong), 4 exact names labelled
  // right, 2 unknown names labelled with an id (missed), 2 unknown names labelled "no match".
  rows = [
    ...bs.slice(0, 10).map((b) => ({ domain: b.domain })),
    ...bs.slice(0, 4).map((b) => ({ name: b.name })),
    ...NONSENSE.map((name) => ({ name })),
  ];
  truths = [...ids.slice(0, 8), ids[10]!, ids[11]!, ...ids.slice(0, 4), ids[4]!, ids[5]!, null, null];
  prospects = engine.db
    .prepare(
      `SELECT p.prospect_id, p.full_name, b.name AS company_name FROM prospects p
       LEFT JOIN businesses b ON b.rowid = p.business_rowid WHERE p.rowid <= 4 ORDER BY p.rowid`,
    )
    .all() as typeof prospects;
}, 30_000);

afterAll(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('evaluateMatches', () => {
  it('scores precision, recall and F1 overall and per matched_on kind', () => {
    const e = evaluateMatches(engine, rows, truths);
    expect(e.entity).toBe('businesses');
    const p = 12 / 14;
    const r = 12 / 16;
    expect(e.overall).toEqual({
      rows: 18,
      positives: 16,
      matched: 14,
      correct: 12,
      precision: p,
      recall: r,
      f1: (2 * p * r) / (p + r),
    });
    expect(e.byMatchedOn).toEqual({
      domain: {
        rows: 10,
        positives: 10,
        matched: 10,
        correct: 8,
        precision: 0.8,
        recall: 0.8,
        f1: 0.8000000000000002,
      },
      name: { rows: 4, positives: 4, matched: 4, correct: 4, precision: 1, recall: 1, f1: 1 },
      none: { rows: 4, positives: 2, matched: 0, correct: 0, precision: 1, recall: 0, f1: 0 },
    });
  });

  it('lists the wrong and the missed rows with what the matcher said', () => {
    const e = evaluateMatches(engine, rows, truths);
    expect(e.wrong.map((w) => [w.index, w.truth, w.predicted, w.matched_on])).toEqual([
      [8, ids[10], ids[8], ['domain']],
      [9, ids[11], ids[9], ['domain']],
    ]);
    expect(e.missed.map((m) => [m.index, m.truth, m.predicted, m.input.name])).toEqual([
      [14, ids[4], null, NONSENSE[0]],
      [15, ids[5], null, NONSENSE[1]],
    ]);
  });

  it('computes the curve by thresholding each answered row’s match_confidence', () => {
    const e = evaluateMatches(engine, rows, truths);
    expect(e.curve.map((p) => p.threshold)).toEqual([
      0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95,
      1,
    ]);
    // Oracle: the explained answers, kept iff their confidence reaches the threshold.
    const explained = matchBusinessRows(engine, rows, { explain: true });
    for (const point of e.curve) {
      const kept = explained
        .map((x, i) => ({ x, truth: truths[i] }))
        .filter(({ x }) => x.business_id !== null && (x.match_confidence ?? 0) >= point.threshold);
      expect(point.matched).toBe(kept.length);
      expect(point.correct).toBe(kept.filter(({ x, truth }) => x.business_id === truth).length);
      expect(point.positives).toBe(16);
    }
    // Below every confidence the curve is the matcher's own decision.
    expect(e.curve[0]).toEqual({ threshold: 0.05, ...e.overall });
    expect(evaluateMatches(engine, rows, truths, { thresholds: [0.5] }).curve).toHaveLength(1);
  });

  // Runs once `MatchOptions.minConfidence` (min_confidence plumbing) is in the matcher.
  const supportsMinConfidence = (): boolean => {
    const [r] = matchBusinessRows(engine, [{ domain: rows[0]!.domain }], {
      minConfidence: 1,
    } as MatchOptions);
    return r?.business_id === null;
  };
  it('gives the same answers as running with min_confidence, where the matcher has it', (ctx) => {
    if (!supportsMinConfidence()) ctx.skip();
    const e = evaluateMatches(engine, rows, truths);
    for (const point of e.curve.filter((p) => p.threshold >= 0.5)) {
      const direct = evaluateMatches(engine, rows, truths, {
        minConfidence: point.threshold,
        thresholds: [],
      } as Parameters<typeof evaluateMatches>[3]);
      expect({ matched: direct.overall.matched, correct: direct.overall.correct }).toEqual({
        matched: point.matched,
        correct: point.correct,
      });
    }
  });

  it('scores prospects, inferring the entity from the row keys', () => {
    const input = prospects.map((p) => ({ full_name: p.full_name, company_name: p.company_name }));
    const labels = prospects.map((p, i) => (i === 3 ? prospects[0]!.prospect_id : p.prospect_id));
    const e = evaluateMatches(engine, input, labels);
    expect(e.entity).toBe('prospects');
    expect(e.overall).toMatchObject({
      rows: 4,
      positives: 4,
      matched: 4,
      correct: 3,
      precision: 0.75,
      recall: 0.75,
    });
    expect(Object.keys(e.byMatchedOn)).toEqual(['company+name']);
    expect(e.wrong.map((w) => w.index)).toEqual([3]);
  });

  it('refuses rows and truths of different lengths, and rows of both entities', () => {
    expect(() => evaluateMatches(engine, rows, truths.slice(1))).toThrow('18 rows but 17 truths');
    expect(() => evaluateMatches(engine, [{ name: 'A' }, { email: 'a@b.com' }], [null, null])).toThrow(
      'both business and prospect keys',
    );
  });
});

/** Runs `prospectdb match` with output captured. */
async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi
    .spyOn(console, 'error')
    .mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    return { code: await matchCli(argv), out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const csvCell = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

describe('prospectdb match --truth', () => {
  it('prints P/R/F1 overall, per matched_on and the curve from a CSV, and writes the wrong and missed rows', async () => {
    const csv = join(dir, 'labelled.csv');
    writeFileSync(
      csv,
      'name,domain,expected_id\n' +
        rows
          .map((r, i) => [r.name ?? '', r.domain ?? '', truths[i] ?? ''].map(csvCell).join(','))
          .join('\n') +
        '\n',
    );
    const errors = join(dir, 'errors.jsonl');
    const r = await cli(['--db', dbPath, '--businesses', csv, '--truth', 'expected_id', '--errors', errors]);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe('businesses: 18 rows, 16 labelled with an id');
    expect(lines.find((l) => l.startsWith('overall'))).toMatch(
      /^overall\s+18\s+14\s+12\s+85\.71%\s+75\.00%\s+0\.8000$/,
    );
    expect(lines.find((l) => l.startsWith('domain'))).toMatch(
      /^domain\s+10\s+10\s+8\s+80\.00%\s+80\.00%\s+0\.8000$/,
    );
    expect(lines.find((l) => l.startsWith('none'))).toMatch(
      /^none\s+4\s+0\s+0\s+100\.00%\s+0\.00%\s+0\.0000$/,
    );
    expect(lines.find((l) => l.startsWith('≥ 0.50'))).toMatch(
      /^≥ 0\.50\s+18\s+14\s+12\s+85\.71%\s+75\.00%\s+0\.8000$/,
    );
    expect(r.out).toContain('wrong: 2, missed: 2');
    const written = readFileSync(errors, 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { reason: string; index: number; truth: string; predicted: string | null },
      );
    expect(written.map((w) => [w.reason, w.index, w.truth, w.predicted])).toEqual([
      ['wrong', 8, ids[10], ids[8]],
      ['wrong', 9, ids[11], ids[9]],
      ['missed', 14, ids[4], null],
      ['missed', 15, ids[5], null],
    ]);
  });

  it('reads JSONL and prints the summary as JSON with --json', async () => {
    const jsonl = join(dir, 'labelled.jsonl');
    writeFileSync(jsonl, rows.map((r, i) => JSON.stringify({ ...r, truth: truths[i] })).join('\n') + '\n');
    const r = await cli(['--db', dbPath, '--businesses', jsonl, '--truth', 'truth', '--json']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.out) as {
      overall: { correct: number };
      wrong: number;
      missed: number;
      errors_file: string;
    };
    expect(summary.overall.correct).toBe(12);
    expect([summary.wrong, summary.missed]).toEqual([2, 2]);
    expect(summary.errors_file).toBe(join(dir, 'labelled.errors.jsonl'));
    expect(readFileSync(summary.errors_file, 'utf8').trim().split('\n')).toHaveLength(4);
  });

  it('answers a bad --min-confidence and a missing --truth value with usage errors', async () => {
    const jsonl = join(dir, 'labelled.jsonl');
    expect(
      (await cli(['--db', dbPath, '--businesses', jsonl, '--truth', 'truth', '--min-confidence', '2'])).code,
    ).toBe(2);
    await expect(cli(['--db', dbPath, '--businesses', jsonl, '--truth'])).rejects.toThrow(
      "'--truth <value>' argument missing",
    );
  });
});
