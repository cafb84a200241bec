/**
 * The library's search functions: the request is checked once by the fetch, stats and autocomplete
 * routes' own schemas (`parse.ts`), then answered by the core as the facade answers it (without
 * `response_context`, accounts or credits). Request types are the schemas' input types, so a field
 * with a default may be left out; results are typed records.
 */
import { z } from 'zod';
import { autocomplete as complete, type AutocompleteItem } from '../core/autocomplete.js';
import {
  fetchBusinesses as fetchBusinessPage,
  fetchProspects as fetchProspectPage,
  type CursorPage,
  type OffsetPage,
} from '../core/fetch.js';
import { businessStats as businessTab, prospectStats as prospectTab } from '../core/stats.js';
import type { Context } from '../runtime/context.js';
import type { AutocompleteField } from '../schemas/enums.js';
import * as schemas from '../schemas/search.js';
import type {
  BUSINESS_PREVIEW_KEYS,
  businessRecord,
  FetchMode,
  PROSPECT_PREVIEW_KEYS,
  prospectRecord,
} from '../store/wire.js';
import { checkEngine, parseOptions, parseRequest } from './parse.js';

/** The API generation a request is read as: `1` (the default) or `2`. */
export type ApiVersion = 1 | 2;

/** Options of the fetch and stats functions. */
export interface SearchOptions<V extends ApiVersion = 1> {
  /**
   * The API generation whose request schema and rules apply (default 1): v2 pages by cursor only
   * (no `size` / `page`), drops `has_email` / `has_phone_number`, and its business location filters
   * leave out operating locations unless `include_operating_locations` says otherwise.
   */
  version?: V;
}

/** A version option as written: `{ version }`, or the bare number of the 0.x positional argument. */
const Version = z.literal([1, 2]);
const VersionOption = z.strictObject({ version: Version.optional() });

function versionOf(options: unknown): ApiVersion {
  if (options === 1 || options === 2) return options;
  if (options === undefined) return 1;
  return parseOptions(VersionOption, options).version ?? 1;
}

/** A fetch mode as written: the enumeration (editors suggest it) or the same word in another case. */
type ModeInput = FetchMode | (string & Record<never, never>);
type WithMode<T> = Omit<T, 'mode'> & { mode: ModeInput };

/** A prospect fetch request as written (v1, the default; fields with a default may be left out). */
export type ProspectsFetchRequest = WithMode<z.input<typeof schemas.ProspectsFetchRequestV1>>;
/** A v2 prospect fetch request as written (cursor pages; no `size`, `page`, `has_email`, `has_phone_number`). */
export type ProspectsFetchRequestV2 = WithMode<z.input<typeof schemas.ProspectsFetchRequestV2>>;
/** A business fetch request as written (v1, the default). */
export type BusinessesFetchRequest = WithMode<z.input<typeof schemas.BusinessesFetchRequestV1>>;
/** A v2 business fetch request as written (cursor pages; no `size`, `page`). */
export type BusinessesFetchRequestV2 = WithMode<z.input<typeof schemas.BusinessesFetchRequestV2>>;
/** A prospect stats request as written (v1; `filters` is required, `null` for no filter). */
export type ProspectsStatsRequest = z.input<typeof schemas.ProspectsStatsRequestV1>;
/** A v2 prospect stats request as written (no `has_email`, `has_phone_number`). */
export type ProspectsStatsRequestV2 = z.input<typeof schemas.ProspectsStatsRequestV2>;
/** A business stats request as written (`filters` is required, `null` for no filter). */
export type BusinessesStatsRequest = z.input<typeof schemas.BusinessesStatsRequestV1>;
/** An autocomplete request as written: the field to complete and the typed prefix. */
export type AutocompleteRequest = Omit<z.input<typeof schemas.AutocompleteRequest>, 'field'> & {
  field: AutocompleteField | (string & Record<never, never>);
};

type ProspectFull = ReturnType<typeof prospectRecord>;
type BusinessFull = ReturnType<typeof businessRecord>;
type ProspectPreviewKey = (typeof PROSPECT_PREVIEW_KEYS)[number];
type BusinessPreviewKey = (typeof BUSINESS_PREVIEW_KEYS)[number];

/**
 * A fetched prospect (the live API's record): every `preview` field, plus the `full` mode's others
 * (`linkedin`, `linkedin_url_array`, `experience`, `skills`, `interests`, `company_linkedin`).
 */
export type FetchedProspect = Pick<ProspectFull, ProspectPreviewKey> &
  Partial<Omit<ProspectFull, ProspectPreviewKey>>;
/** A fetched business (the live API's record): every `preview` field, plus the `full` mode's others. */
export type FetchedBusiness = Pick<BusinessFull, BusinessPreviewKey> &
  Partial<Omit<BusinessFull, BusinessPreviewKey>>;

/** A v1 page: by offset (`page`, `total_pages`), or by cursor when the request has `next_cursor`. */
export type Page<T> = OffsetPage<T> | CursorPage<T>;
/** What a fetch of API generation `V` answers: v2 pages by cursor only. */
export type PageOf<T, V extends ApiVersion> = V extends 2 ? CursorPage<T> : Page<T>;
type FetchRequestOf<V extends ApiVersion, V1, V2> = V extends 2 ? V2 : V1;

/** Business stats: `total_results` and the cross tabs of the live stats route. */
export type BusinessStats = ReturnType<typeof businessTab>;
/** Prospect stats: `total_results` and departments and totals per location. */
export type ProspectStats = ReturnType<typeof prospectTab>;

/**
 * One page of prospects, as the live fetch route answers it (without `response_context`). The request
 * is checked by the route's schema: an unknown filter, a wrong type or an unknown value throws
 * `EngineError` `VALIDATION` whose `issues` are the 422 `detail` entries.
 * @example
 * const page = fetchProspects(engine, { mode: 'full', page_size: 100, filters: { country_code: { values: ['us'] } } });
 * const next = fetchProspects(engine, { mode: 'full', page_size: 100, next_cursor: null }, { version: 2 });
 */
export function fetchProspects<V extends ApiVersion = 1>(
  engine: Context,
  request: FetchRequestOf<V, ProspectsFetchRequest, ProspectsFetchRequestV2>,
  options?: SearchOptions<V>,
): PageOf<FetchedProspect, V> {
  checkEngine(engine);
  const version = versionOf(options);
  const schema = version === 2 ? schemas.ProspectsFetchRequestV2 : schemas.ProspectsFetchRequestV1;
  const parsed = parseRequest(schema, request);
  return fetchProspectPage(engine, parsed, version) as PageOf<FetchedProspect, V>;
}

/**
 * One page of businesses, as the live fetch route answers it (without `response_context`); the request
 * is checked as `fetchProspects` checks its own.
 * @example fetchBusinesses(engine, { mode: 'preview', page_size: 50 }).data[0]?.name
 */
export function fetchBusinesses<V extends ApiVersion = 1>(
  engine: Context,
  request: FetchRequestOf<V, BusinessesFetchRequest, BusinessesFetchRequestV2>,
  options?: SearchOptions<V>,
): PageOf<FetchedBusiness, V> {
  checkEngine(engine);
  const version = versionOf(options);
  const schema = version === 2 ? schemas.BusinessesFetchRequestV2 : schemas.BusinessesFetchRequestV1;
  const parsed = parseRequest(schema, request);
  return fetchBusinessPage(engine, parsed, version) as PageOf<FetchedBusiness, V>;
}

/**
 * Business stats for a filter set: total, categories per location, revenue and size ranges. `filters`
 * is required, as in the live route (`null`: every business).
 * @example businessStats(engine, { filters: { country_code: { values: ['us'] } } }).total_results
 */
export function businessStats(
  engine: Context,
  request: BusinessesStatsRequest,
  options?: SearchOptions<ApiVersion>,
): BusinessStats {
  checkEngine(engine);
  const version = versionOf(options);
  const parsed = parseRequest(
    version === 2 ? schemas.BusinessesStatsRequestV2 : schemas.BusinessesStatsRequestV1,
    request,
  );
  return businessTab(engine, parsed, version);
}

/**
 * Prospect stats for a filter set: total, departments per location, prospects per location. `filters`
 * is required, as in the live route (`null`: every prospect).
 * @example prospectStats(engine, { filters: { job_level: { values: ['director'] } } }).total_results
 */
export function prospectStats<V extends ApiVersion = 1>(
  engine: Context,
  request: FetchRequestOf<V, ProspectsStatsRequest, ProspectsStatsRequestV2>,
  options?: SearchOptions<V>,
): ProspectStats {
  checkEngine(engine);
  const version = versionOf(options);
  const parsed = parseRequest(
    version === 2 ? schemas.ProspectsStatsRequestV2 : schemas.ProspectsStatsRequestV1,
    request,
  );
  return prospectTab(engine, parsed);
}

/**
 * Autocomplete items (the typed `query`, a `label` and the filter `value`) for a filter field and a
 * typed prefix, typos allowed. An unknown `field` or option throws `EngineError` `VALIDATION`.
 * @example autocomplete(engine, { field: 'country', query: 'unit' }) // [{ query: 'unit', label: 'United States', value: 'us' }, …]
 */
export function autocomplete(engine: Context, request: AutocompleteRequest): AutocompleteItem[] {
  checkEngine(engine);
  return complete(engine, parseRequest(schemas.AutocompleteRequest, request, { where: 'query' }));
}
