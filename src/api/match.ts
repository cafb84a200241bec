/**
 * The library's match functions: each row is checked by the match routes' row schema (a strict object
 * of bounded strings) and the options by their own, once at the call (a stream's rows as they come);
 * then the core matcher answers. A refused row throws `EngineError` `VALIDATION` whose `issues` are the
 * 422 `detail` entries the same row would get in a request body
 * (`['body', 'businesses_to_match', i, 'domain']`). Unlike a request body, a batch or a stream may hold
 * any number of rows.
 */
import { z } from 'zod';
import type { ZodType } from 'zod';
import type { ValidationIssue } from '../errors.js';
import { MAX_DETAIL, toDetail } from '../facade/validation.js';
import {
  matchBusinesses as matchBusinessBatch,
  matchBusinessRows as matchBusinessBatchRows,
  matchBusinessStream as matchBusinessChunks,
  matchProspects as matchProspectBatch,
  matchProspectRows as matchProspectBatchRows,
  matchProspectStream as matchProspectChunks,
} from '../core/match/index.js';
import { entityOf, evaluateMatches as evaluate, type Evaluation } from '../core/match/evaluate.js';
import type {
  BusinessesMatchResult,
  BusinessMatchRow,
  ProspectMatchRow,
  ProspectsMatchResult,
} from '../core/match/types.js';
import type { Context } from '../runtime/context.js';
import { LIMITS } from '../schemas/bounds.js';
import { BusinessMatchInput, ProspectMatchInput } from '../schemas/match.js';
import { checkEngine, parseOptions, refused } from './parse.js';

/** A business row to match: any of `name`, `domain`, `url`, `linkedin_url` (strings or null). */
export type BusinessRowInput = z.input<typeof BusinessMatchInput>;
/** A prospect row to match: any of `business_id`, `full_name`, `company_name`, `email`, `phone_number`, `linkedin`. */
export type ProspectRowInput = z.input<typeof ProspectMatchInput>;

const MatchOptionsSchema = z.strictObject({
  explain: z.boolean().optional(),
  alternatives: z.number().int().min(0).max(100).optional(),
  minConfidence: z.number().min(0).max(1).optional(),
});
const StreamOptionsSchema = z.strictObject({
  ...MatchOptionsSchema.shape,
  chunkSize: z.number().int().min(1).max(1_000_000).optional(),
  onProgress: z
    .custom<(rows: number) => void>((v) => typeof v === 'function', 'must be a function')
    .optional(),
});
const EvaluateOptionsSchema = z.strictObject({
  alternatives: MatchOptionsSchema.shape.alternatives,
  minConfidence: MatchOptionsSchema.shape.minConfidence,
  entity: z.enum(['businesses', 'prospects']).optional(),
  thresholds: z.array(z.number().min(0).max(1)).optional(),
});

/** Options of the match functions. */
export type MatchOptions = z.input<typeof MatchOptionsSchema>;
/** Options of the streaming match functions: the match options, the chunk size and a progress callback. */
export type StreamOptions = z.input<typeof StreamOptionsSchema>;
/** Options of `evaluateMatches`: which matcher, the curve's thresholds, and the match options. */
export type EvaluateOptions = z.input<typeof EvaluateOptionsSchema>;

interface Rows<Row> {
  schema: ZodType<Row>;
  /** The request body member the rows travel in, for the issues' `loc`. */
  key: 'businesses_to_match' | 'prospects_to_match';
  /** The schema's members and their maximum lengths (the schema is a strict object of nullish strings). */
  maxima: Readonly<Record<string, number>>;
}
const BUSINESS_ROWS: Rows<BusinessRowInput> = {
  schema: BusinessMatchInput,
  key: 'businesses_to_match',
  maxima: { name: LIMITS.name, domain: LIMITS.url, url: LIMITS.url, linkedin_url: LIMITS.url },
};
const PROSPECT_ROWS: Rows<ProspectRowInput> = {
  schema: ProspectMatchInput,
  key: 'prospects_to_match',
  maxima: {
    business_id: LIMITS.code,
    full_name: LIMITS.personName,
    company_name: LIMITS.name,
    email: LIMITS.email,
    phone_number: LIMITS.phone,
    linkedin: LIMITS.url,
  },
};

/**
 * Whether the row schema would accept `row` as it is: a plain object of known members, each a string
 * within its bound, null or absent. A row this passes is the schema's output unchanged, so zod runs
 * only on the others (for their exact issues): a row costs a few property reads, not a parse.
 */
function plainRow(rows: Rows<unknown>, row: unknown): boolean {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return false;
  for (const key in row) {
    if (!Object.hasOwn(row, key)) continue;
    const max = Object.hasOwn(rows.maxima, key) ? rows.maxima[key] : undefined;
    if (max === undefined) return false;
    const v = (row as Record<string, unknown>)[key];
    if (v !== null && v !== undefined && (typeof v !== 'string' || v.length > max)) return false;
  }
  return true;
}

/** Appends the 422 entries of row `i` (none when it is valid) and returns the parsed row. */
function checkRow<Row>(rows: Rows<Row>, row: unknown, i: number, issues: ValidationIssue[]): Row {
  if (plainRow(rows, row)) return row as Row;
  const r = rows.schema.safeParse(row, { reportInput: true });
  if (r.success) return r.data;
  for (const issue of toDetail(r.error.issues, 'body', rows.schema))
    issues.push({ ...issue, loc: ['body', rows.key, i, ...issue.loc.slice(1)] });
  return row as Row;
}

function checkRows<Row>(rows: Rows<Row>, value: unknown): Row[] {
  if (!Array.isArray(value)) {
    throw refused([{ loc: ['body', rows.key], msg: 'value is not a valid list', type: 'type_error.list' }]);
  }
  const issues: ValidationIssue[] = [];
  const out = new Array<Row>(value.length);
  for (let i = 0; i < value.length && issues.length < MAX_DETAIL; i++)
    out[i] = checkRow(rows, value[i], i, issues);
  if (issues.length > 0) throw refused(issues.slice(0, MAX_DETAIL));
  return out;
}

/** The stream's rows, each checked as it comes (the first refused row ends the stream with its error). */
async function* checkedStream<Row>(
  rows: Rows<Row>,
  source: AsyncIterable<unknown> | Iterable<unknown>,
): AsyncGenerator<Row> {
  let i = 0;
  for await (const row of source) {
    const issues: ValidationIssue[] = [];
    const parsed = checkRow(rows, row, i++, issues);
    if (issues.length > 0) throw refused(issues);
    yield parsed;
  }
}

function iterable(value: unknown, key: Rows<unknown>['key']): AsyncIterable<unknown> | Iterable<unknown> {
  const v = value as Record<symbol, unknown> | null | undefined;
  if (
    v != null &&
    (typeof v[Symbol.asyncIterator] === 'function' || typeof v[Symbol.iterator] === 'function')
  )
    return value as AsyncIterable<unknown> | Iterable<unknown>;
  throw refused([{ loc: ['body', key], msg: 'value is not an iterable of rows', type: 'type_error.list' }]);
}

/**
 * Matches businesses to ids: the live response body without `response_context`, one row per input row.
 * @example matchBusinesses(engine, [{ name: 'Acme Robotics', domain: 'acmerobotics.com' }], { explain: true })
 */
export function matchBusinesses(
  engine: Context,
  rows: readonly BusinessRowInput[],
  options?: MatchOptions,
): BusinessesMatchResult {
  checkEngine(engine);
  const o = parseOptions(MatchOptionsSchema, options);
  return matchBusinessBatch(engine, checkRows(BUSINESS_ROWS, rows), o);
}

/**
 * Matches business rows, one output row per input row (the rows of `matchBusinesses`' answer).
 * @example const [row] = matchBusinessRows(engine, [{ domain: 'acmerobotics.com' }]); row?.business_id
 */
export function matchBusinessRows(
  engine: Context,
  rows: readonly BusinessRowInput[],
  options?: MatchOptions,
): BusinessMatchRow[] {
  checkEngine(engine);
  const o = parseOptions(MatchOptionsSchema, options);
  return matchBusinessBatchRows(engine, checkRows(BUSINESS_ROWS, rows), o);
}

/**
 * Matches a stream of business rows of any length, yielding one result per row in input order; a
 * refused row ends the stream with an `EngineError` naming it.
 * @example for await (const r of matchBusinessStream(engine, rowsOf('crm.jsonl'))) write(r);
 */
export function matchBusinessStream(
  engine: Context,
  rows: AsyncIterable<BusinessRowInput> | Iterable<BusinessRowInput>,
  options?: StreamOptions,
): AsyncGenerator<BusinessMatchRow> {
  checkEngine(engine);
  const o = parseOptions(StreamOptionsSchema, options);
  return matchBusinessChunks(engine, checkedStream(BUSINESS_ROWS, iterable(rows, BUSINESS_ROWS.key)), o);
}

/**
 * Matches prospects to ids: the live response body without `response_context`, one row per input row.
 * @example matchProspects(engine, [{ full_name: 'Jane Doe', company_name: 'Acme Robotics' }], { minConfidence: 0.5 })
 */
export function matchProspects(
  engine: Context,
  rows: readonly ProspectRowInput[],
  options?: MatchOptions,
): ProspectsMatchResult {
  checkEngine(engine);
  const o = parseOptions(MatchOptionsSchema, options);
  return matchProspectBatch(engine, checkRows(PROSPECT_ROWS, rows), o);
}

/**
 * Matches prospect rows, one output row per input row (the rows of `matchProspects`' answer).
 * @example const [row] = matchProspectRows(engine, [{ email: 'jane@acmerobotics.com' }]); row?.prospect_id
 */
export function matchProspectRows(
  engine: Context,
  rows: readonly ProspectRowInput[],
  options?: MatchOptions,
): ProspectMatchRow[] {
  checkEngine(engine);
  const o = parseOptions(MatchOptionsSchema, options);
  return matchProspectBatchRows(engine, checkRows(PROSPECT_ROWS, rows), o);
}

/**
 * Matches a stream of prospect rows of any length, yielding one result per row in input order; a
 * refused row ends the stream with an `EngineError` naming it.
 * @example for await (const r of matchProspectStream(engine, rowsOf('leads.csv'))) write(r);
 */
export function matchProspectStream(
  engine: Context,
  rows: AsyncIterable<ProspectRowInput> | Iterable<ProspectRowInput>,
  options?: StreamOptions,
): AsyncGenerator<ProspectMatchRow> {
  checkEngine(engine);
  const o = parseOptions(StreamOptionsSchema, options);
  return matchProspectChunks(engine, checkedStream(PROSPECT_ROWS, iterable(rows, PROSPECT_ROWS.key)), o);
}

/**
 * Scores the matcher on labelled rows (`truths[i]`: the expected id of row i, or null when it should
 * stay unmatched): precision, recall, F1, per-kind scores and the confidence curve.
 * @example const e = evaluateMatches(engine, rows, truths); console.log(e.overall.f1, e.curve);
 */
export function evaluateMatches(
  engine: Context,
  rows: readonly (BusinessRowInput | ProspectRowInput)[],
  truths: readonly (string | null | undefined)[],
  options?: EvaluateOptions,
): Evaluation {
  checkEngine(engine);
  const o = parseOptions(EvaluateOptionsSchema, options);
  if (!Array.isArray(rows) || !Array.isArray(truths) || rows.length !== truths.length) {
    throw refused([
      {
        loc: ['truths'],
        msg: `one truth per row: ${Array.isArray(rows) ? rows.length : 'no'} rows but ${Array.isArray(truths) ? truths.length : 'no'} truths`,
        type: 'value_error.list.length',
      },
    ]);
  }
  const entity = o.entity ?? entityOf(rows as Record<string, unknown>[]);
  const checked = entity === 'businesses' ? checkRows(BUSINESS_ROWS, rows) : checkRows(PROSPECT_ROWS, rows);
  return evaluate(engine, checked, truths, { ...o, entity });
}
