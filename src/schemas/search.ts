/**
 * Search request bodies (docs/spec/api-reference.md §4.1, §4.2, §5.1, §6, §7). Strict objects: an unknown
 * member is a 422. Offset mode (v1 without `next_cursor`) takes `size` (≤ 60,000, default 60,000),
 * `page_size` (1–500) and `page` (≥ 1); cursor mode (`next_cursor` present, string or null, and every v2
 * fetch) takes `page_size` ≤ 100. `size ≥ page_size` is checked as a root rule (`__root__`).
 */
import { z } from 'zod';
import { anyCase, Bool, FreeObject, LIMITS, list } from './bounds.js';
import { AUTOCOMPLETE_FIELDS, FETCH_MODES } from './enums.js';
import { BusinessFilters, ProspectFilters, ProspectFiltersV2 } from './filters.js';

export const MAX_SIZE = 60_000;
export const MAX_PAGE_SIZE = 500;
export const MAX_CURSOR_PAGE_SIZE = 100;
export const MAX_EXCLUDE = 1_000;
export const MAX_PER_COMPANY = 100;

const RequestContext = FreeObject.nullish();
const Mode = anyCase(FETCH_MODES);
const PageSize = z.number().int().min(1).max(MAX_PAGE_SIZE);
const lowerHex = (n: number) =>
  z
    .string()
    .max(LIMITS.code)
    .transform((s) => s.toLowerCase())
    .pipe(z.string().regex(new RegExp(`^[a-f0-9]{${n}}$`), `must be ${n} hexadecimal characters`));
const Exclude = (n: number) => list(lowerHex(n), MAX_EXCLUDE).nullish();
const Cursor = z.string().max(LIMITS.cursor).nullable().optional();

type Paging = { size?: number | null; page_size: number; next_cursor?: string | null };

function v1Rules(req: Paging, ctx: z.RefinementCtx) {
  const size = req.size ?? MAX_SIZE;
  if (size < req.page_size) {
    ctx.addIssue({
      code: 'custom',
      path: [],
      message: "'size' must be greater than or equal to 'page_size'",
      params: { type: 'value_error' },
    });
  }
  if ('next_cursor' in req) cursorPageSize(req, ctx);
}

function cursorPageSize(req: { page_size: number }, ctx: z.RefinementCtx) {
  if (req.page_size > MAX_CURSOR_PAGE_SIZE) {
    ctx.addIssue({
      code: 'too_big',
      maximum: MAX_CURSOR_PAGE_SIZE,
      origin: 'number',
      inclusive: true,
      path: ['page_size'],
      message: `ensure this value is less than or equal to ${MAX_CURSOR_PAGE_SIZE} (cursor pagination)`,
      input: req.page_size,
    });
  }
}

/** Prospect fetch only: at most N prospects per business (`core/company-cap.ts` states the rule). */
const MaxPerCompany = { max_per_company: z.number().int().min(1).max(MAX_PER_COMPANY).nullish() };

function v1Fetch<F extends z.ZodType, X extends z.ZodRawShape = Record<never, never>>(
  filters: F,
  idLength: number,
  extra?: X,
) {
  return z
    .strictObject({
      ...(extra as X),
      mode: Mode,
      size: z.number().int().min(1).max(MAX_SIZE).nullish(),
      page_size: PageSize,
      page: z.number().int().min(1).max(MAX_SIZE).nullish(),
      exclude: Exclude(idLength),
      filters: filters.nullish(),
      next_cursor: Cursor,
      request_context: RequestContext,
    })
    .superRefine((req, ctx) => v1Rules(req as Paging, ctx));
}

function v2Fetch<F extends z.ZodType, X extends z.ZodRawShape = Record<never, never>>(
  filters: F,
  idLength: number,
  extra?: X,
) {
  return z
    .strictObject({
      ...(extra as X),
      mode: Mode,
      page_size: PageSize,
      exclude: Exclude(idLength),
      filters: filters.nullish(),
      next_cursor: Cursor,
      request_context: RequestContext,
    })
    .superRefine((req, ctx) => cursorPageSize(req as Paging, ctx));
}

export const BusinessesFetchRequestV1 = v1Fetch(BusinessFilters, 32);
export const BusinessesFetchRequestV2 = v2Fetch(BusinessFilters, 32);
export const ProspectsFetchRequestV1 = v1Fetch(ProspectFilters, 40, MaxPerCompany);
export const ProspectsFetchRequestV2 = v2Fetch(ProspectFiltersV2, 40, MaxPerCompany);

export type BusinessesFetchRequestV1 = z.output<typeof BusinessesFetchRequestV1>;
export type BusinessesFetchRequestV2 = z.output<typeof BusinessesFetchRequestV2>;
export type ProspectsFetchRequestV1 = z.output<typeof ProspectsFetchRequestV1>;
export type ProspectsFetchRequestV2 = z.output<typeof ProspectsFetchRequestV2>;
export type BusinessesFetchRequest = BusinessesFetchRequestV1 | BusinessesFetchRequestV2;
export type ProspectsFetchRequest = ProspectsFetchRequestV1 | ProspectsFetchRequestV2;

/** Stats: `filters` is required (it may be null, read as no filter). */
export const BusinessesStatsRequest = z.strictObject({
  request_context: RequestContext,
  filters: BusinessFilters.nullable(),
});
export const BusinessesStatsRequestV1 = BusinessesStatsRequest;
export const BusinessesStatsRequestV2 = BusinessesStatsRequest;
export const ProspectsStatsRequestV1 = z.strictObject({
  request_context: RequestContext,
  filters: ProspectFilters.nullable(),
});
export const ProspectsStatsRequestV2 = z.strictObject({
  request_context: RequestContext,
  filters: ProspectFiltersV2.nullable(),
});
export type BusinessesStatsRequest = z.output<typeof BusinessesStatsRequest>;
export type ProspectsStatsRequestV1 = z.output<typeof ProspectsStatsRequestV1>;
export type ProspectsStatsRequestV2 = z.output<typeof ProspectsStatsRequestV2>;
export type ProspectsStatsRequest = ProspectsStatsRequestV1 | ProspectsStatsRequestV2;

/**
 * Autocomplete query string. Not strict: like FastAPI, unknown query parameters are ignored. `query`
 * is at most 200 characters; `semantic_search` reads pydantic booleans (true/false, 1/0, yes/no, on/off).
 */
export const AutocompleteQuery = z.object({
  field: anyCase(AUTOCOMPLETE_FIELDS),
  query: z.string().max(LIMITS.query).default(''),
  semantic_search: Bool.default(false),
});
export type AutocompleteQuery = z.output<typeof AutocompleteQuery>;

/**
 * The autocomplete query as a library call gives it (`autocomplete(engine, {...})`): the same members,
 * but strict, since an object's misspelled member is a mistake to name, not a stray URL parameter.
 */
export const AutocompleteRequest = z.strictObject(AutocompleteQuery.shape);
