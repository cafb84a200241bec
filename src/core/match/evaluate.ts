/**
 * Evaluation of the matcher on labelled rows: precision, recall and F1 overall and per `matched_on`
 * kind, the curve over `min_confidence`, and the rows that were wrong or missed.
 *
 * The curve comes from one explained run: at threshold t a row keeps its answer iff its
 * `match_confidence` ≥ t, which is what `min_confidence: t` decides for every t at or above the
 * confidence of the best candidate the default decision left out (see the test that runs both).
 */
import { EngineError } from '../../errors.js';
import type { Context } from '../../runtime/context.js';
import { matchBusinessRows, matchProspectRows } from './batch.js';
import {
  BUSINESS_KEYS,
  PROSPECT_KEYS,
  type Alternative,
  type BusinessRowInput,
  type MatchedOn,
  type MatchOptions,
  type ProspectRowInput,
} from './types.js';

export type EvaluatedEntity = 'businesses' | 'prospects';

export interface EvaluateOptions extends Omit<MatchOptions, 'explain'> {
  /** Which matcher to run; inferred from the rows' keys when absent (the two key sets are disjoint). */
  entity?: EvaluatedEntity;
  /** Thresholds of the curve; default 0.05, 0.10, …, 1.00. */
  thresholds?: readonly number[];
}

/** Counts and scores of a set of rows. */
export interface Scores {
  /** Rows in the set. */
  rows: number;
  /** Rows whose label is an id (the others expect no match). */
  positives: number;
  /** Rows answered with an id. */
  matched: number;
  /** Rows answered with the labelled id. */
  correct: number;
  /** correct / matched (1 when nothing was matched). */
  precision: number;
  /** correct / positives (1 when no row expects an id). */
  recall: number;
  f1: number;
}

export interface CurvePoint extends Scores {
  threshold: number;
}

/** A row the matcher answered with another id than its label, or left unmatched though labelled. */
export interface EvaluatedRow {
  /** Position of the row in the input. */
  index: number;
  input: Record<string, unknown>;
  truth: string | null;
  predicted: string | null;
  match_confidence: number;
  matched_on: MatchedOn[];
  alternatives: Alternative[];
}

export interface Evaluation {
  entity: EvaluatedEntity;
  /** The matcher's own decision (with `minConfidence` when given). */
  overall: Scores;
  /**
   * Per evidence kind (`matched_on` joined with `+`, `none` for unmatched rows): scores among the rows
   * answered through that kind; recall there is correct / positives of those rows, so the `none` group
   * holds the missed rows at recall 0.
   */
  byMatchedOn: Record<string, Scores>;
  curve: CurvePoint[];
  /** Rows answered with an id that is not their label (including rows labelled "no match"). */
  wrong: EvaluatedRow[];
  /** Rows labelled with an id and left unmatched. */
  missed: EvaluatedRow[];
}

const DEFAULT_THRESHOLDS = Array.from({ length: 20 }, (_, i) => Math.round((i + 1) * 5) / 100);

/** Precision, recall and F1 from counts (empty denominators count as perfect: nothing to get wrong). */
export function scores(rows: number, positives: number, matched: number, correct: number): Scores {
  const precision = matched === 0 ? 1 : correct / matched;
  const recall = positives === 0 ? 1 : correct / positives;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { rows, positives, matched, correct, precision, recall, f1 };
}

/** Which matcher rows are for, from their keys (the two key sets are disjoint). */
export function entityOf(rows: readonly Record<string, unknown>[]): EvaluatedEntity {
  let business = false;
  let prospect = false;
  for (const row of rows) {
    for (const k of BUSINESS_KEYS) if (row[k] != null) business = true;
    for (const k of PROSPECT_KEYS) if (row[k] != null) prospect = true;
  }
  if (business && prospect)
    throw EngineError.validation([
      {
        loc: ['options', 'entity'],
        msg: 'rows hold both business and prospect keys; pass options.entity to choose',
        type: 'value_error',
      },
    ]);
  return prospect ? 'prospects' : 'businesses';
}

function label(truth: string | null | undefined): string | null {
  if (truth === undefined || truth === null) return null;
  const t = String(truth).trim();
  return t.length === 0 ? null : t;
}

/**
 * Runs the matcher once with explanations over `rows` and scores it against `truths` (the expected id
 * of row i, or null / '' when row i should stay unmatched).
 * @example
 *   const e = evaluateMatches(engine, [{ name: 'Acme Robotics' }], ['9f3c…']);
 *   console.log(e.overall.precision, e.curve.find((p) => p.threshold === 0.9));
 */
export function evaluateMatches(
  engine: Context,
  rows: readonly (BusinessRowInput | ProspectRowInput)[],
  truths: readonly (string | null | undefined)[],
  options: EvaluateOptions = {},
): Evaluation {
  if (rows.length !== truths.length)
    throw new RangeError(`evaluateMatches: ${rows.length} rows but ${truths.length} truths`);
  const { entity: asked, thresholds = DEFAULT_THRESHOLDS, ...matchOptions } = options;
  const entity = asked ?? entityOf(rows as Record<string, unknown>[]);
  const run = { ...matchOptions, explain: true, alternatives: Math.max(matchOptions.alternatives ?? 0, 1) };
  const answered =
    entity === 'businesses'
      ? matchBusinessRows(engine, rows as BusinessRowInput[], run).map((r) => ({ ...r, id: r.business_id }))
      : matchProspectRows(engine, rows as ProspectRowInput[], run).map((r) => ({ ...r, id: r.prospect_id }));

  const labels = truths.map(label);
  const positives = labels.filter((t) => t !== null).length;
  let matched = 0;
  let correct = 0;
  const kinds = new Map<string, { rows: number; positives: number; matched: number; correct: number }>();
  const wrong: EvaluatedRow[] = [];
  const missed: EvaluatedRow[] = [];
  const confidences: { confidence: number; right: boolean }[] = [];
  answered.forEach((r, index) => {
    const truth = labels[index] as string | null;
    const confidence = r.match_confidence ?? 0;
    const on = r.matched_on ?? [];
    const kind = r.id === null ? 'none' : on.length > 0 ? on.join('+') : 'unknown';
    const k = kinds.get(kind) ?? { rows: 0, positives: 0, matched: 0, correct: 0 };
    kinds.set(kind, k);
    k.rows++;
    if (truth !== null) k.positives++;
    const row = (): EvaluatedRow => ({
      index,
      input: r.input as unknown as Record<string, unknown>,
      truth,
      predicted: r.id,
      match_confidence: confidence,
      matched_on: on,
      alternatives: r.alternatives ?? [],
    });
    if (r.id !== null) {
      matched++;
      k.matched++;
      const right = r.id === truth;
      if (right) {
        correct++;
        k.correct++;
      } else wrong.push(row());
      confidences.push({ confidence, right });
    } else if (truth !== null) missed.push(row());
  });

  const curve = thresholds.map((threshold): CurvePoint => {
    let m = 0;
    let c = 0;
    for (const x of confidences)
      if (x.confidence >= threshold) {
        m++;
        if (x.right) c++;
      }
    return { threshold, ...scores(rows.length, positives, m, c) };
  });
  const byMatchedOn: Record<string, Scores> = {};
  for (const [kind, k] of [...kinds].sort((a, b) => b[1].rows - a[1].rows))
    byMatchedOn[kind] = scores(k.rows, k.positives, k.matched, k.correct);
  return {
    entity,
    overall: scores(rows.length, positives, matched, correct),
    byMatchedOn,
    curve,
    wrong,
    missed,
  };
}
