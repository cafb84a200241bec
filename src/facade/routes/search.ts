/**
 * Search routes: fetch (charged 1 credit per returned record), stats and autocomplete (free), v1 and
 * v2. The v2 differences (cursor-only fetch, no `size`/`page`, no `has_email`/`has_phone_number`)
 * live in the request schemas; the core returns the wire body without `response_context`.
 */
import { autocomplete } from '../../core/autocomplete.js';
import { fetchBusinesses, fetchProspects } from '../../core/fetch.js';
import { businessStats, prospectStats } from '../../core/stats.js';
import {
  AutocompleteQuery,
  BusinessesFetchRequestV1,
  BusinessesFetchRequestV2,
  BusinessesStatsRequestV1,
  BusinessesStatsRequestV2,
  ProspectsFetchRequestV1,
  ProspectsFetchRequestV2,
  ProspectsStatsRequestV1,
  ProspectsStatsRequestV2,
  type BusinessesFetchRequest,
  type BusinessesStatsRequest,
  type ProspectsFetchRequest,
  type ProspectsStatsRequest,
} from '../../schemas/search.js';
import type { Route, RouteContext, RouteResult } from '../types.js';

function fetched(ctx: RouteContext, body: { data: unknown[] }): RouteResult {
  ctx.charge('fetch', body.data.length);
  return { body, miss: body.data.length === 0 };
}

const businesses = (ctx: RouteContext<BusinessesFetchRequest>) =>
  fetched(ctx, fetchBusinesses(ctx.engine, ctx.body, ctx.version));
const prospects = (ctx: RouteContext<ProspectsFetchRequest>) =>
  fetched(ctx, fetchProspects(ctx.engine, ctx.body, ctx.version));

function businessesStats(ctx: RouteContext<BusinessesStatsRequest>): RouteResult {
  const body = businessStats(ctx.engine, ctx.body, ctx.version);
  return { body, miss: body.total_results === 0 };
}

function prospectsStats(ctx: RouteContext<ProspectsStatsRequest>): RouteResult {
  const body = prospectStats(ctx.engine, ctx.body);
  return { body, miss: body.total_results === 0 };
}

function complete(ctx: RouteContext<unknown, AutocompleteQuery>): RouteResult {
  return { body: autocomplete(ctx.engine, ctx.query), responseContext: false };
}

export const routes: Route[] = [
  { method: 'POST', path: '/v1/businesses', body: BusinessesFetchRequestV1, handler: businesses },
  { method: 'POST', path: '/v1/prospects', body: ProspectsFetchRequestV1, handler: prospects },
  { method: 'POST', path: '/v1/businesses/stats', body: BusinessesStatsRequestV1, handler: businessesStats },
  { method: 'POST', path: '/v1/prospects/stats', body: ProspectsStatsRequestV1, handler: prospectsStats },
  { method: 'GET', path: '/v1/businesses/autocomplete', query: AutocompleteQuery, handler: complete },
  { method: 'GET', path: '/v1/prospects/autocomplete', query: AutocompleteQuery, handler: complete },
  { method: 'POST', path: '/v2/businesses', body: BusinessesFetchRequestV2, handler: businesses },
  { method: 'POST', path: '/v2/prospects', body: ProspectsFetchRequestV2, handler: prospects },
  { method: 'POST', path: '/v2/businesses/stats', body: BusinessesStatsRequestV2, handler: businessesStats },
  { method: 'POST', path: '/v2/prospects/stats', body: ProspectsStatsRequestV2, handler: prospectsStats },
  { method: 'GET', path: '/v2/autocomplete', query: AutocompleteQuery, handler: complete },
];
