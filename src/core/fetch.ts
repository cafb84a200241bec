/**
 * Fetch businesses and prospects (docs/spec/api-reference.md §4, §5): filters → bitset → one page of records,
 * in rowid (= snapshot) order, so the same request gives the same page.
 *
 * Offset mode (v1 without `next_cursor`): `total_results` = min(matches, size), `total_pages` =
 * ceil(total_results / page_size), pages past the end are empty. Cursor mode (v1 with `next_cursor`,
 * every v2 fetch): `total_results` is the true count; `next_cursor` is null on the last page. A cursor
 * of `null`, `""` or the string `"null"` (the docs' wording) starts a walk. Excluded ids are removed
 * from the set before counting; the cursor does not bind `exclude` (it may change between pages).
 * `max_per_company` (prospects) caps the set per business after `exclude` (`company-cap.ts`), so
 * `total_results`, offset pages and cursors all see the capped set.
 */
import type { Context } from '../runtime/context.js';
import { EngineError } from '../errors.js';
import { cardinality, select, take, type Bitset } from '../indexes/bitset.js';
import { release } from '../indexes/scratch.js';
import { useNativeStringDecoding } from '../store/codec.js';
import type { BusinessesFetchRequest, ProspectsFetchRequest } from '../schemas/search.js';
import { MAX_SIZE } from '../schemas/search.js';
import { capPerCompany } from './company-cap.js';
import { cursorScope, decodeCursor, encodeCursor, type CursorEntity } from './cursor.js';
import {
  businessRowids,
  excludeRows,
  businessFilterSet,
  prospectFilterSet,
  prospectRowids,
} from './filters.js';
import { businessRecords, prospectRecords, type FetchMode } from './records.js';

export interface OffsetPage<T> {
  data: T[];
  total_results: number;
  page: number;
  total_pages: number;
}
export interface CursorPage<T> {
  data: T[];
  total_results: number;
  page: { size: number; next_cursor: string | null };
}
export type FetchResult<T> = OffsetPage<T> | CursorPage<T>;

interface Common {
  mode: FetchMode;
  page_size: number;
  filters?: unknown;
  next_cursor?: string | null;
  size?: number | null;
  page?: number | null;
  max_per_company?: number | null;
}

/** The rowids of one page plus the page metadata (records are built by the caller). */
export type PagePlan =
  | { kind: 'offset'; rows: number[]; total_results: number; page: number; total_pages: number }
  | { kind: 'cursor'; rows: number[]; total_results: number; next_cursor: string | null };

/** Plans a page over a matching set (shared by both entities). */
export function planPage(
  engine: Context,
  set: Bitset,
  request: Common,
  entity: CursorEntity,
  version: 1 | 2,
): PagePlan {
  const cursorMode = version === 2 || 'next_cursor' in request;
  if (cursorMode) {
    const scope = cursorScope(entity, version, request.mode, request.filters, request.max_per_company);
    let after = 0;
    const token = request.next_cursor;
    if (token && token !== 'null') {
      const decoded = decodeCursor(engine, token, scope);
      if (!decoded.ok) {
        throw EngineError.validation([
          { loc: ['next_cursor'], msg: `invalid cursor: ${decoded.reason}`, type: 'value_error.cursor' },
        ]);
      }
      after = decoded.after;
    }
    const total = cardinality(set);
    const rows = take(set, after + 1, request.page_size + 1);
    let next: string | null = null;
    if (rows.length > request.page_size) {
      rows.length = request.page_size;
      next = encodeCursor(engine, scope, rows[rows.length - 1]!);
    }
    return { kind: 'cursor', rows, total_results: total, next_cursor: next };
  }
  const size = request.size ?? MAX_SIZE;
  const page = request.page ?? 1;
  const total = Math.min(cardinality(set), size);
  const totalPages = Math.ceil(total / request.page_size);
  const start = (page - 1) * request.page_size;
  const end = Math.min(start + request.page_size, total);
  let rows: number[] = [];
  if (start < end) {
    const first = start === 0 ? 0 : select(set, start);
    rows = first < 0 ? [] : take(set, first, end - start);
  }
  return { kind: 'offset', rows, total_results: total, page, total_pages: totalPages };
}

function respond<T>(plan: PagePlan, data: T[]): FetchResult<T> {
  if (plan.kind === 'cursor') {
    return {
      data,
      total_results: plan.total_results,
      page: { size: data.length, next_cursor: plan.next_cursor },
    };
  }
  return { data, total_results: plan.total_results, page: plan.page, total_pages: plan.total_pages };
}

/** One page over a lent matching set (given back afterwards): `exclude` removed, then planned and built. */
function pageOf<T>(
  engine: Context,
  set: Bitset,
  request: Common & { exclude?: string[] | null },
  entity: CursorEntity,
  version: 1 | 2,
  rowids: (engine: Context, ids: readonly string[]) => number[],
  records: (engine: Context, rows: readonly number[], mode: FetchMode) => T[],
): FetchResult<T> {
  try {
    if (request.exclude?.length) excludeRows(set, rowids(engine, request.exclude));
    // After `exclude`: an excluded prospect leaves its place to the next one of its company.
    if (request.max_per_company) capPerCompany(engine, set, request.max_per_company);
    const plan = planPage(engine, set, request, entity, version);
    const page = respond(plan, records(engine, plan.rows, request.mode));
    // Pages decode ~10% faster with msgpackr's native string reader: it loads after this first page
    // (in the background, ~50 ms of CPU), not with the package nor before the first answer.
    useNativeStringDecoding();
    return page;
  } finally {
    release(engine, set);
  }
}

/**
 * One page of prospects.
 * @example fetchProspects(engine, { mode: 'full', page_size: 100, filters: { country_code: { values: ['us'] } } }, 1)
 */
export function fetchProspects(engine: Context, request: ProspectsFetchRequest, version: 1 | 2) {
  const set = prospectFilterSet(engine, request.filters);
  return pageOf(engine, set, request, 'prospect', version, prospectRowids, prospectRecords);
}

/**
 * One page of businesses.
 * @example fetchBusinesses(engine, { mode: 'full', page_size: 50, next_cursor: null }, 1)
 */
export function fetchBusinesses(engine: Context, request: BusinessesFetchRequest, version: 1 | 2) {
  const set = businessFilterSet(engine, request.filters, version);
  return pageOf(engine, set, request, 'business', version, businessRowids, businessRecords);
}
