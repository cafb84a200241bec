/**
 * Match routes, v1 and v2 (identical schemas): the result list keeps the input's length and order.
 * Free on the default menu (`match` costs 0), but priced through the menu so a partner can charge it.
 */
import { matchBusinesses, matchProspects, type MatchOptions } from '../../core/match/index.js';
import { BusinessesMatchRequest, ProspectsMatchRequest } from '../../schemas/match.js';
import type { Route, RouteContext, RouteResult } from '../types.js';

function matched(ctx: RouteContext, body: { total_matches: number }): RouteResult {
  ctx.charge('match', body.total_matches);
  return { body, miss: body.total_matches === 0 };
}

/** The body's `min_confidence` extension as a library option; absent → the default decision. */
const options = (body: { min_confidence?: number | null }): MatchOptions =>
  body.min_confidence == null ? {} : { minConfidence: body.min_confidence };

const businesses = (ctx: RouteContext<BusinessesMatchRequest>) =>
  matched(ctx, matchBusinesses(ctx.engine, ctx.body.businesses_to_match, options(ctx.body)));
const prospects = (ctx: RouteContext<ProspectsMatchRequest>) =>
  matched(ctx, matchProspects(ctx.engine, ctx.body.prospects_to_match, options(ctx.body)));

export const routes: Route[] = [
  { method: 'POST', path: '/v1/businesses/match', body: BusinessesMatchRequest, handler: businesses },
  { method: 'POST', path: '/v1/prospects/match', body: ProspectsMatchRequest, handler: prospects },
  { method: 'POST', path: '/v2/businesses/match', body: BusinessesMatchRequest, handler: businesses },
  { method: 'POST', path: '/v2/prospects/match', body: ProspectsMatchRequest, handler: prospects },
];
