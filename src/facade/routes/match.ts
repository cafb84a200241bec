/**
 * Match routes, v1 and v2 (identical schemas): the result list keeps the input's length and order.
 * Free on the default menu (`match` costs 0), but priced through the menu so a partner can charge it.
 */
import { matchBusinesses, matchProspects } from '../../core/match/index.js';
import { BusinessesMatchRequest, ProspectsMatchRequest } from '../../schemas/match.js';
import type { Route, RouteContext, RouteResult } from '../types.js';

function matched(ctx: RouteContext, body: { total_matches: number }): RouteResult {
  ctx.charge('match', body.total_matches);
  return { body, miss: body.total_matches === 0 };
}

const businesses = (ctx: RouteContext<BusinessesMatchRequest>) =>
  matched(ctx, matchBusinesses(ctx.engine, ctx.body.businesses_to_match));
const prospects = (ctx: RouteContext<ProspectsMatchRequest>) =>
  matched(ctx, matchProspects(ctx.engine, ctx.body.prospects_to_match));

export const routes: Route[] = [
  { method: 'POST', path: '/v1/businesses/match', body: BusinessesMatchRequest, handler: businesses },
  { method: 'POST', path: '/v1/prospects/match', body: ProspectsMatchRequest, handler: prospects },
  { method: 'POST', path: '/v2/businesses/match', body: BusinessesMatchRequest, handler: businesses },
  { method: 'POST', path: '/v2/prospects/match', body: ProspectsMatchRequest, handler: prospects },
];
