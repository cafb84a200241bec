/**
 * Stage 4, run + charge: the route's handler with its context, and the charges it queues. Queued
 * charges are applied atomically with the handler's writes (inside `ctx.transaction`) or in one
 * IMMEDIATE transaction when it returns; a balance that does not cover them throws 403 and nothing
 * is charged.
 */
import { applyCharges, type ChargeOutcome, type PendingCharge } from '../../account/credits.js';
import type { Context } from '../../runtime/context.js';
import type { RouteContext, RouteResult } from '../types.js';
import type { Caller } from './authenticate.js';
import type { Decoded } from './decode.js';
import type { Validated } from './validate.js';

export interface Ran {
  result: RouteResult;
  /** What the request was charged in all (the `credit_usage` body). */
  billed: ChargeOutcome;
}

export async function runRoute(
  engine: Context,
  decoded: Decoded,
  input: Validated,
  caller: Caller,
  correlationId: string,
): Promise<Ran> {
  const { account, keyId } = caller;
  const pending: PendingCharge[] = [];
  const billed: ChargeOutcome = { total_credits: 0, total_results: 0 };
  const scope = { account: account!, keyId, endpoint: decoded.route.path, correlationId };
  const flush = () => {
    if (pending.length === 0 || !account) return;
    const o = applyCharges(engine, scope, pending.splice(0));
    billed.total_credits += o.total_credits;
    billed.total_results += o.total_results;
  };
  const ctx: RouteContext = {
    engine,
    version: decoded.version,
    params: input.params,
    query: input.query,
    headers: decoded.headers,
    body: input.body,
    rawBody: input.rawBody,
    account,
    correlationId,
    charge(operation, units) {
      if (units > 0) pending.push({ operation, units });
    },
    transaction<T>(fn: () => Promise<T>): Promise<T> {
      return engine.state.transaction(async () => {
        const out = await fn();
        flush();
        return out;
      });
    },
  };
  const result = await decoded.route.handler(ctx);
  if (pending.length > 0) engine.db.transaction(flush).immediate();
  return { result, billed };
}
