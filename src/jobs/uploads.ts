/**
 * Entity-id datasets (`POST /v2/async/entity-id-datasets/upload`): a CSV of ids, with or without a header
 * row, at most 10,000 rows. Every row is validated first; a file with any bad row is refused with the
 * bad rows listed (422) and nothing is stored. Lists expire after `LIST_TTL_MS`.
 */
import type { Context } from '../runtime/context.js';
import { EngineError, type ValidationIssue } from '../errors.js';
import { BUSINESS_ID, PROSPECT_ID } from '../schemas/records.js';
import { UPLOAD_SQL } from '../store/sql/jobs.js';

export type EntityType = 'business' | 'prospect';

/** Rows an upload (and so a job) may hold. */
export const MAX_LIST_ROWS = 10_000;
/** Largest CSV read: 10,000 ids of 40 hex characters plus generous slack for quoting, CRLF and a header. */
export const MAX_CSV_BYTES = MAX_LIST_ROWS * 64 + 4096;
/** Longest list `name` and `description`. */
export const MAX_LIST_NAME = 256;
export const MAX_LIST_DESCRIPTION = 1_000;
/** How long an uploaded list can be used by jobs (not given by the reference; our choice). */
export const LIST_TTL_MS = 7 * 24 * 3600_000;
/** Bad rows listed in a 422 (all are counted in the message). */
const MAX_REPORTED = 20;

export interface EntityList {
  list_id: string;
  account_id: string;
  entity_type: EntityType;
  name: string;
  description: string;
  row_count: number;
  ids: string[];
  created_at: number;
  expires_at: number;
}

interface ListRow extends Omit<EntityList, 'ids' | 'entity_type'> {
  entity_type: EntityType;
  ids: string;
}

const HEADER_NAMES = ['business_id', 'prospect_id', 'entity_id', 'id', 'business_ids', 'prospect_ids'];

/** One CSV field, unquoted (ids never contain commas, so a simple split is exact for valid input). */
const unquote = (f: string) =>
  f
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim();

export type ParsedIds = { ok: true; ids: string[] } | { ok: false; issues: ValidationIssue[] };

/**
 * Parses the id CSV: optional header row (`business_id`, `prospect_id`, `entity_id` or `id`; with
 * several columns the id column is picked by that name), blank lines skipped, ids lower-cased.
 * @example parseIdCsv('prospect_id\n' + id + '\n', 'prospect') // { ok: true, ids: [id] }
 */
export function parseIdCsv(text: string, entity: EntityType): ParsedIds {
  // Library callers bypass the route's multipart limit: refuse an oversized text before splitting it.
  if (text.length > MAX_CSV_BYTES) {
    return {
      ok: false,
      issues: [
        {
          loc: ['body', 'file'],
          msg: `ensure the file has at most ${MAX_LIST_ROWS} rows (${MAX_CSV_BYTES} bytes)`,
          type: 'value_error.list.max_items',
          ctx: { limit_value: MAX_LIST_ROWS },
        },
      ],
    };
  }
  const pattern = entity === 'business' ? BUSINESS_ID : PROSPECT_ID;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let column = 0;
  let start = 0;
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first >= 0) {
    const fields = lines[first]!.split(',').map((f) => unquote(f).toLowerCase());
    const named = fields.findIndex((f) => HEADER_NAMES.includes(f));
    if (named >= 0 || !fields.some((f) => pattern.test(f))) {
      column = Math.max(named, 0);
      start = first + 1;
    }
  }
  const ids: string[] = [];
  const issues: ValidationIssue[] = [];
  let bad = 0;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const id = unquote(line.split(',')[column] ?? '').toLowerCase();
    if (!pattern.test(id)) {
      bad++;
      if (issues.length < MAX_REPORTED) {
        issues.push({
          loc: ['body', 'file', i + 1],
          msg: `line ${i + 1}: '${id.slice(0, 64)}' is not a valid ${entity}_id (${entity === 'business' ? 32 : 40} lowercase hex characters)`,
          type: 'value_error.str.regex',
        });
      }
      continue;
    }
    ids.push(id);
  }
  if (bad > 0) return { ok: false, issues };
  if (ids.length === 0) {
    return {
      ok: false,
      issues: [{ loc: ['body', 'file'], msg: 'the file holds no ids', type: 'value_error' }],
    };
  }
  if (ids.length > MAX_LIST_ROWS) {
    return {
      ok: false,
      issues: [
        {
          loc: ['body', 'file'],
          msg: `ensure the file has at most ${MAX_LIST_ROWS} rows (it has ${ids.length})`,
          type: 'value_error.list.max_items',
          ctx: { limit_value: MAX_LIST_ROWS },
        },
      ],
    };
  }
  return { ok: true, ids };
}

export interface UploadInput {
  entity_type: EntityType;
  name: string;
  description: string;
  csv: string;
}

/** Validates and stores a list; throws a 422 listing bad rows (nothing stored). */
export async function createList(
  engine: Context,
  accountId: string,
  input: UploadInput,
): Promise<EntityList> {
  const long: ValidationIssue[] = [];
  for (const [field, max] of [
    ['name', MAX_LIST_NAME],
    ['description', MAX_LIST_DESCRIPTION],
  ] as const) {
    if (input[field].length > max) {
      long.push({
        loc: ['body', field],
        msg: `ensure this value has at most ${max} characters`,
        type: 'value_error.any_str.max_length',
        ctx: { limit_value: max },
      });
    }
  }
  if (long.length > 0) throw EngineError.validation(long);
  const parsed = parseIdCsv(input.csv, input.entity_type);
  if (!parsed.ok) throw EngineError.validation(parsed.issues);
  const now = engine.now();
  const list: EntityList = {
    list_id: engine.newId('lst', 12),
    account_id: accountId,
    entity_type: input.entity_type,
    name: input.name,
    description: input.description,
    row_count: parsed.ids.length,
    ids: parsed.ids,
    created_at: now,
    expires_at: now + LIST_TTL_MS,
  };
  await engine.state.run(UPLOAD_SQL.insert, [
    list.list_id,
    list.account_id,
    list.entity_type,
    list.name,
    list.description,
    list.row_count,
    parsed.ids.join('\n'),
    list.created_at,
    list.expires_at,
  ]);
  return list;
}

/** An account's list, or null (unknown or another account's). Expired lists are returned as they are. */
export async function getList(
  engine: Context,
  accountId: string,
  listId: string,
): Promise<EntityList | null> {
  const row = await engine.state.get<ListRow>(UPLOAD_SQL.get, [listId, accountId]);
  return row ? { ...row, ids: row.ids === '' ? [] : row.ids.split('\n') } : null;
}

/**
 * Deletes lists that expired more than a job's longest run ago (a job submitted just before its list
 * expired may still read it). Idempotent: any worker of any process may run it.
 */
export async function sweepLists(engine: Context, runLimitMs: number): Promise<void> {
  await engine.state.run(UPLOAD_SQL.sweep, [engine.now() - runLimitMs]);
}
