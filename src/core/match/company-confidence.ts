/**
 * Business-name confidences as probabilities: each decision path reports a raw score (a fuzzy score, the
 * word evidence of `company-words.ts`, 1 for an exact name), and a table fitted on labelled real names
 * kept apart from the evaluation (`scripts/calibrate-companies.ts` → `company-confidence.generated.ts`)
 * says how often an answer of that path and raw score was right.
 */
import { COMPANY_CONFIDENCE } from './company-confidence.generated.js';

export type { ConfidencePath, ConfidenceTable } from './company-confidence-table.js';
import type { ConfidencePath, ConfidenceTable } from './company-confidence-table.js';

// Documented module state: the table in force. Only the calibration script replaces it (below); the
// engine reads it.
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
