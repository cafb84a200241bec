/**
 * The facade: one request in, one response out, no socket. The HTTP server and the CLI `request`
 * command are thin adapters over `handle`. The request passes five stages, each a module of
 * `stages/`: decode (route, 404/405) → authenticate (401, 429, 403) → validate (path, query and body,
 * 422) → run + charge (handler, then charges: 403 when the balance is short) → respond
 * (`response_context`, and every refusal or error as a status body from the error table).
 *
 * @example
 * const res = await handle(engine, { method: 'POST', path: '/v1/businesses/match',
 *   headers: { api_key: key }, body: { businesses_to_match: [{ name: 'acme' }] } });
 */
import { randomBytes } from 'node:crypto';
import type { Context } from '../runtime/context.js';
import { EngineError } from '../errors.js';
import { createRouter, type Router } from './router.js';
import { AREAS, type AreaName } from './routes/index.js';
import { ROUTE_TABLE } from './routes/table.generated.js';
import { SPEC_ROUTES } from './spec.js';
import { authenticateRequest } from './stages/authenticate.js';
import { decodeRequest } from './stages/decode.js';
import { refusalOf, refusalResponse, successResponse } from './stages/respond.js';
import { runRoute } from './stages/run.js';
import { validateRequest } from './stages/validate.js';
import type { Account, FacadeRequest, FacadeResponse, HttpMethod, Route } from './types.js';

/** A route of the spec that has no handler yet: 501 with the documented error body. */
function notImplemented(method: HttpMethod, path: string): Route {
  return {
    method,
    path,
    auth: 'none',
    handler() {
      throw new EngineError('NOT_IMPLEMENTED', `${method} ${path} is not implemented yet`);
    },
  };
}

/** Router over the given routes plus a 501 stub for every spec route they leave out. */
export function buildRouter(routes: readonly Route[]): Router {
  return createRouter([...routes, ...SPEC_ROUTES.map(([m, p]) => notImplemented(m, p))]);
}

/** Every registered route of every area (`routes/index.ts`), every area imported. */
export async function allRoutes(): Promise<Route[]> {
  const areas = await Promise.all(Object.values(AREAS).map((load) => load()));
  return areas.flatMap((area) => area.routes);
}

/**
 * The default router routes with the route table (`routes/table.generated.ts`): each route of it a
 * placeholder of the same method and path, replaced by the route itself once the request is routed,
 * its area imported on first use. The router's order is the areas' own, so it answers every method
 * and path exactly as a router over every area's routes would (404, 405 and its `allow` list, 501).
 */
const placeholders = new Map<Route, AreaName>();
const areaRoutes = new Map<AreaName, Promise<Map<string, Route>>>();
// Built on first use (a documented cache: the route table is constant for the process).
let defaultRouter: Router | undefined;

function tableRouter(): Router {
  const routes = ROUTE_TABLE.map(([area, method, path]): Route => {
    const placeholder: Route = {
      method,
      path,
      handler() {
        throw new Error(`${method} ${path}: a route placeholder ran`);
      },
    };
    placeholders.set(placeholder, area);
    return placeholder;
  });
  return buildRouter(routes);
}

/** The route a placeholder stands for (its area imported on first use); any other route as it is. */
async function realRoute(route: Route): Promise<Route> {
  const area = placeholders.get(route);
  if (area === undefined) return route;
  let routes = areaRoutes.get(area);
  if (!routes) {
    routes = AREAS[area]().then((m) => {
      const byKey = new Map<string, Route>();
      for (const r of m.routes)
        if (!byKey.has(`${r.method} ${r.path}`)) byKey.set(`${r.method} ${r.path}`, r);
      return byKey;
    });
    areaRoutes.set(area, routes);
    routes.catch(() => areaRoutes.delete(area));
  }
  const found = (await routes).get(`${route.method} ${route.path}`);
  if (!found) throw new Error(`the route table is stale: ${route.method} ${route.path} is not in ${area}`);
  return found;
}

/** Options of `handle`; a bare `Router` is still accepted as the third argument. */
export interface HandleOptions {
  router?: Router;
  /**
   * A caller the adapter has already authenticated (the tool server's OAuth token): API-key
   * authentication is skipped; rate limit, entitlements, validation and charges apply unchanged.
   */
  account?: Account;
  /** The API key behind `account` (rate-limit bucket and ledger attribution). */
  keyId?: string;
}

/** Handles one request against the engine. Never throws; unexpected failures answer 500. */
export async function handle(
  engine: Context,
  request: FacadeRequest,
  routerOrOptions: Router | HandleOptions = {},
): Promise<FacadeResponse> {
  const opts: HandleOptions = 'match' in routerOrOptions ? { router: routerOrOptions } : routerOrOptions;
  const router = opts.router ?? (defaultRouter ??= tableRouter());
  const started = performance.now();
  const options = engine.settings.facade;
  const correlationId = options.correlationId?.() ?? randomBytes(16).toString('hex');

  let rate: Record<string, string> = {};
  // The request runs on the snapshot current at its start, to the end, even across a swap.
  const pinned = engine.pin?.();
  if (pinned) engine = pinned.ctx;
  try {
    const decoded = decodeRequest(request, router);
    if (!decoded.ok) return refusalResponse(decoded.refusal, correlationId);
    decoded.request.route = await realRoute(decoded.request.route);
    const preset = opts.account ? { account: opts.account, keyId: opts.keyId } : undefined;
    const auth = await authenticateRequest(engine, decoded.request, request.clientAddress, preset);
    if (!auth.ok) return refusalResponse(auth.refusal, correlationId);
    rate = auth.caller.rate;
    const valid = validateRequest(decoded.request, request.body, options.maxJsonDepth);
    if (!valid.ok) return refusalResponse({ ...valid.refusal, headers: rate }, correlationId);
    const { result, billed } = await runRoute(
      engine,
      decoded.request,
      valid.input,
      auth.caller,
      correlationId,
    );
    return successResponse({
      result,
      billed,
      version: decoded.request.version,
      path: decoded.request.path,
      headers: decoded.request.headers,
      correlationId,
      started,
      rate,
    });
  } catch (e) {
    return refusalResponse({ ...refusalOf(e, correlationId), headers: rate }, correlationId);
  } finally {
    pinned?.release();
  }
}
