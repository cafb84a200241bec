/**
 * Batch matching: rows in, rows out in the same order. The indexes are looked up once per batch and
 * each row is answered from memory, so a batch costs no SQLite round trip per row.
 */
import type { Context } from '../../runtime/context.js';
import { matchBusinessRow, otherCandidates } from './businesses.js';
import { companyContext } from './company-search.js';
import { echoBusiness, echoProspect } from './input.js';
import { boundedBusiness, boundedProspect } from './limits.js';
import { matchProspectRow, prospectContext } from './prospects.js';
import type { StringColumn } from '../../indexes/format/strings.js';
import {
  MATCH_ERRORS,
  type BusinessesMatchResult,
  type BusinessMatchRow,
  type BusinessRowInput,
  type MatchOptions,
  type ProspectMatchRow,
  type ProspectRowInput,
  type ProspectsMatchResult,
  type Verdict,
} from './types.js';

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The `minConfidence` option, checked: a number in [0, 1] or undefined (the default decision). */
export function minConfidenceOf(options: MatchOptions): number | undefined {
  const m = options.minConfidence;
  if (m === undefined || m === null) return undefined;
  if (typeof m !== 'number' || !(m >= 0 && m <= 1)) {
    throw new RangeError(`minConfidence must be a number from 0 to 1, got ${String(m)}`);
  }
  return m;
}

/**
 * A match whose confidence is below `min` becomes no match, its candidate first among the others (so
 * `alternatives` still shows it). Matchers that promote candidates above the threshold do so themselves.
 */
export function belowThreshold(verdict: Verdict, min: number | undefined): Verdict {
  if (min === undefined || verdict.kind !== 'match' || verdict.confidence >= min) return verdict;
  const rest = verdict.candidates.filter((c) => c.pos !== verdict.pos);
  return { kind: 'none', candidates: [{ pos: verdict.pos, score: verdict.confidence }, ...rest] };
}

/** Adds the verdict's error and (when asked) explanation to a row holding `input` and its id. */
function finish<Row extends { input: unknown }>(
  row: Row,
  verdict: Verdict,
  ids: StringColumn,
  options: MatchOptions,
): void {
  const out = row as Record<string, unknown>;
  if (verdict.kind === 'error') {
    out.error = MATCH_ERRORS[verdict.error];
    out.error_type = verdict.error;
  }
  if (options.explain) {
    out.match_confidence = verdict.kind === 'match' ? round(verdict.confidence) : 0;
    out.matched_on =
      verdict.kind === 'match'
        ? verdict.on
        : verdict.kind === 'none' && verdict.ambiguous
          ? ['ambiguous']
          : [];
  }
  const k = options.alternatives ?? 0;
  if (k > 0) {
    out.alternatives = otherCandidates(verdict, k).map((c) => ({
      id: ids.at(c.pos) as string,
      score: round(c.score),
    }));
  }
}

/** Matches business rows; the i-th output row answers the i-th input row. */
export function matchBusinessRows(
  engine: Context,
  rows: readonly BusinessRowInput[],
  options: MatchOptions = {},
): BusinessMatchRow[] {
  const min = minConfidenceOf(options);
  const ctx = companyContext(engine, options.explain === true || (options.alternatives ?? 0) > 0, min);
  const out: BusinessMatchRow[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const input = echoBusiness(rows[i] as BusinessRowInput);
    const verdict = belowThreshold(matchBusinessRow(ctx, boundedBusiness(input)), min);
    const row: BusinessMatchRow = {
      input,
      business_id: verdict.kind === 'match' ? (ctx.ids.at(verdict.pos) as string) : null,
    };
    finish(row, verdict, ctx.ids, options);
    out[i] = row;
  }
  return out;
}

/** Matches prospect rows; the i-th output row answers the i-th input row. */
export function matchProspectRows(
  engine: Context,
  rows: readonly ProspectRowInput[],
  options: MatchOptions = {},
): ProspectMatchRow[] {
  const min = minConfidenceOf(options);
  const detail = options.explain === true || (options.alternatives ?? 0) > 0;
  const ctx = prospectContext(engine, detail, min);
  const out: ProspectMatchRow[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const input = echoProspect(rows[i] as ProspectRowInput);
    const verdict = belowThreshold(matchProspectRow(ctx, boundedProspect(input)), min);
    const row: ProspectMatchRow = {
      input,
      prospect_id: verdict.kind === 'match' ? (ctx.ids.at(verdict.pos) as string) : null,
    };
    finish(row, verdict, ctx.ids, options);
    out[i] = row;
  }
  return out;
}

function countMatches(rows: readonly { business_id?: string | null; prospect_id?: string | null }[]): number {
  let n = 0;
  for (const r of rows) if ((r.business_id ?? r.prospect_id ?? null) !== null) n++;
  return n;
}

/**
 * Matches businesses: the live response body without `response_context`.
 * @example matchBusinesses(engine, [{ name: 'Acme Robotics', domain: 'acmerobotics.com' }])
 */
export function matchBusinesses(
  engine: Context,
  rows: readonly BusinessRowInput[],
  options: MatchOptions = {},
): BusinessesMatchResult {
  const matched = matchBusinessRows(engine, rows, options);
  return { total_results: matched.length, total_matches: countMatches(matched), matched_businesses: matched };
}

/**
 * Matches prospects: the live response body without `response_context`.
 * @example matchProspects(engine, [{ full_name: 'Jane Doe', company_name: 'Acme Robotics' }])
 */
export function matchProspects(
  engine: Context,
  rows: readonly ProspectRowInput[],
  options: MatchOptions = {},
): ProspectsMatchResult {
  const matched = matchProspectRows(engine, rows, options);
  return { total_results: matched.length, total_matches: countMatches(matched), matched_prospects: matched };
}
