/**
 * Business-name confidences as probabilities: each decision path reports a raw score (a fuzzy score, the
 * word evidence of `company-words.ts`, 1 for an exact name), and a table fitted on labelled real names
 * kept apart from the evaluation (`scripts/calibrate-companies.ts` → `company-confidence.generated.ts`)
 * says how often an answer of that path and raw score was right.
 */
import { COMPANY_CONFIDENCE } from './company-confidence.generated.js';

/** How a business name answer was reached. */
export type ConfidencePath =
  /** The one business with the name's key. */
  | 'exact'
  /** Namesakes told apart by the tie-breaks (legal form, country, word order). */
  | 'namesakes'
  /** A fuzzy decision (raw: the name score). */
  | 'fuzzy'
  /** Abbreviated or cut-off words read in full. */
  | 'abbreviated'
  /** The same name with another legal form (raw: 1 / how many such namesakes). */
  | 'other_form'
  /** A word more or less, on term-frequency evidence (raw: the evidence in log units). */
  | 'words'
  /** The best fuzzy candidate of a row the default leaves open (raw: score discounted for rivals). */
  | 'guess_fuzzy'
  /** Namesakes the tie-breaks could not tell apart (raw: 1 / how many). */
  | 'guess_namesakes';

/** Per path: ascending raw thresholds and the share right from each threshold on (a step function). */
export type ConfidenceTable = Record<ConfidencePath, { from: readonly number[]; p: readonly number[] }>;

let table: ConfidenceTable = COMPANY_CONFIDENCE;

/**
 * Replaces the table (the calibration script refits until the paths it sees no longer move; nothing else
 * calls it).
 */
export function useConfidenceTable(next: ConfidenceTable): void {
  table = next;
}

/** The calibrated confidence of an answer reached by `path` with raw score `raw`. */
export function calibrated(path: ConfidencePath, raw: number): number {
  const { from, p } = table[path];
  let lo = 0;
  let hi = from.length - 1;
  if (hi < 0 || raw < (from[0] as number)) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((from[mid] as number) <= raw) lo = mid;
    else hi = mid - 1;
  }
  return p[lo] as number;
}
