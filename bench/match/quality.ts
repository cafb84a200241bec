/**
 * Quality of a matcher on a labelled set: precision, recall and F1 per perturbation kind and overall.
 * A wrong id counts as a false positive and a false negative; an id for an entity that is not in the
 * database is a false positive; no id for an entity that is there is a false negative.
 */
import type { EvalRow } from './evalset.js';
import { scores } from '../../src/core/match/evaluate.js';

export interface Quality {
  kind: string;
  rows: number;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
}

function finish(q: Omit<Quality, 'precision' | 'recall' | 'f1'>): Quality {
  const { precision, recall, f1 } = scores(q.rows, q.tp + q.fn, q.tp + q.fp, q.tp);
  return { ...q, precision, recall, f1 };
}

/** Per-kind rows (held-out rows grouped as `unseen`), then `overall`. */
export function quality(rows: readonly EvalRow<unknown>[], predicted: readonly (string | null)[]): Quality[] {
  const by = new Map<string, Omit<Quality, 'precision' | 'recall' | 'f1'>>();
  const overall = { kind: 'overall', rows: 0, tp: 0, fp: 0, fn: 0 };
  rows.forEach((row, i) => {
    const kind = row.kind.startsWith('unseen:')
      ? 'unseen (not in db)'
      : row.kind.startsWith('namesake:')
        ? 'namesake in db'
        : row.kind.startsWith('ambiguous:')
          ? 'ambiguous name'
          : row.kind;
    let q = by.get(kind);
    if (q === undefined) by.set(kind, (q = { kind, rows: 0, tp: 0, fp: 0, fn: 0 }));
    const got = predicted[i] ?? null;
    for (const t of [q, overall]) {
      t.rows++;
      if (got !== null && got === row.truth) t.tp++;
      else {
        if (got !== null) t.fp++;
        if (row.truth !== null) t.fn++;
      }
    }
  });
  return [...[...by.values()].map(finish), finish(overall)];
}

const pct = (x: number) => x.toFixed(4);

/** A fixed-width table of {@link quality} results. */
export function qualityTable(title: string, qs: readonly Quality[]): string {
  const lines = [
    title,
    `${'kind'.padEnd(20)} ${'rows'.padStart(6)} ${'TP'.padStart(6)} ${'FP'.padStart(4)} ${'FN'.padStart(5)}  ${'P'.padEnd(6)}  ${'R'.padEnd(6)}  F1`,
  ];
  for (const q of qs) {
    lines.push(
      `${q.kind.padEnd(20)} ${String(q.rows).padStart(6)} ${String(q.tp).padStart(6)} ${String(q.fp).padStart(4)} ${String(q.fn).padStart(5)}  ${pct(q.precision)}  ${pct(q.recall)}  ${pct(q.f1)}`,
    );
  }
  return lines.join('\n');
}
