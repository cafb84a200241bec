/**
 * Credits: balance, aggregation (v1 and v2, same schemas) and the v1 charging menu
 * (docs/spec/api-reference.md §11). Free to call.
 */
import { allocatedCredits, balance } from '../../account/accounts.js';
import { aggregateCredits, CreditAggregationRequest } from '../../account/aggregation.js';
import { menuFor } from '../../account/menu.js';
import type { Route, RouteContext, RouteResult } from '../types.js';

async function summary(ctx: RouteContext): Promise<RouteResult> {
  const account = ctx.account!;
  const [allocated, remaining] = await Promise.all([
    allocatedCredits(ctx.engine, account.account_id),
    balance(ctx.engine, account.account_id),
  ]);
  return {
    body: {
      allocated_credits: allocated,
      remaining_credits: remaining,
      account_type: account.account_type,
    },
  };
}

async function aggregation(ctx: RouteContext<CreditAggregationRequest>): Promise<RouteResult> {
  const body = await aggregateCredits(ctx.engine, ctx.account!.account_id, ctx.body);
  return { body, miss: body.total_credits === 0 };
}

async function menu(ctx: RouteContext): Promise<RouteResult> {
  const partner_id = ctx.params.partner_id!;
  const charging_menu = Object.fromEntries(
    Object.entries(await menuFor(ctx.engine, partner_id)).map(([op, cost]) => [op, { credit_cost: cost }]),
  );
  return { body: { partner_id, charging_menu } };
}

export const routes: Route[] = [
  { method: 'GET', path: '/v1/credits', handler: summary },
  { method: 'POST', path: '/v1/credits/aggregation', body: CreditAggregationRequest, handler: aggregation },
  { method: 'GET', path: '/v1/credits/menu/{partner_id}', handler: menu },
  { method: 'GET', path: '/v2/credits', handler: summary },
  { method: 'POST', path: '/v2/credits/aggregation', body: CreditAggregationRequest, handler: aggregation },
];
