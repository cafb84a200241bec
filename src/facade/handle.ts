/**
 * The facade: one request in, one response out, no socket. The HTTP server and the CLI `request`
 * command are thin adapters over `handle`. Order of checks: route → API key (401) → rate limit (429)
 * → entitlement (403) → path, query and body validation (422) → handler → charges (403 when the
 * balance is short) → `response_context`.
 *
 * @example
 * const res = await handle(engine, { method: 'POST', path: '/v1/businesses/match',
 *   headers: { api_key: key }, body: { businesses_to_match: [{ name: 'acme' }] } });
 */
import { randomBytes } from 'node:crypto';
import { ZodError, type ZodType } from 'zod';
import { authenticate } from '../account/accounts.js';
import { createAuthFailureLimiter, type AuthFailureLimiter } from '../account/auth-failures.js';
import { applyCharges, type ChargeOutcome, type PendingCharge } from '../account/credits.js';
import {
  createRateLimiter,
  DEFAULT_PER_MINUTE,
  rateLimitHeaders,
  type RateLimiter,
} from '../account/ratelimit.js';
import type { Context } from '../runtime/context.js';
import { ERROR_CODES, EngineError, isEngineError, type ValidationIssue } from '../errors.js';
import { createRouter, type Router } from './router.js';
import * as areas from './routes/index.js';
import { SPEC_ROUTES } from './spec.js';
import type {
  Account,
  ApiVersion,
  FacadeRequest,
  FacadeResponse,
  HeaderValue,
  HttpMethod,
  Route,
  RouteContext,
  RouteResult,
} from './types.js';
import { bodyBoundsIssue, ISSUES, jsonDecodeIssue, toDetail } from './validation.js';

const DEFAULT_MAX_DEPTH = 64;
const WWW_AUTHENTICATE = 'ApiKey realm="prospectdb", header="api_key"';

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

/** Every registered route of every area (`routes/index.ts`). */
export const ROUTES: readonly Route[] = Object.values(areas).flat() as Route[];
let defaultRouter: Router | undefined;

const limiters = new WeakMap<Context, RateLimiter | null>();
function limiterFor(engine: Context): RateLimiter | null {
  let limiter = limiters.get(engine);
  if (limiter === undefined) {
    const option = engine.settings.facade.rateLimit;
    limiter = option === false ? null : createRateLimiter(option?.perMinute ?? DEFAULT_PER_MINUTE);
    limiters.set(engine, limiter);
  }
  return limiter;
}

const authFailureLimiters = new WeakMap<Context, AuthFailureLimiter | null>();
function authFailureLimiterFor(engine: Context): AuthFailureLimiter | null {
  let limiter = authFailureLimiters.get(engine);
  if (limiter === undefined) {
    const option = engine.settings.facade.authFailureLimit;
    limiter = option === false ? null : createAuthFailureLimiter(option?.perMinute);
    authFailureLimiters.set(engine, limiter);
  }
  return limiter;
}

const firstValue = (v: HeaderValue): string | undefined => (Array.isArray(v) ? v[0] : v);

function lowerHeaders(headers: FacadeRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers || typeof headers !== 'object') return out;
  for (const [name, value] of Object.entries(headers)) {
    const v = firstValue(value);
    if (typeof v === 'string') out[name.toLowerCase()] = v;
  }
  return out;
}

function splitPath(
  raw: string,
  extra: FacadeRequest['query'],
): { path: string; query: Record<string, string> } {
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  const query: Record<string, string> = {};
  if (q !== -1) {
    for (const [k, v] of new URLSearchParams(raw.slice(q + 1))) if (!(k in query)) query[k] = v;
  }
  if (extra && typeof extra === 'object') {
    for (const [k, v] of Object.entries(extra)) {
      const value = firstValue(v);
      if (typeof value === 'string') query[k] = value;
    }
  }
  return { path, query };
}

/** True when a JSON text nests deeper than `limit` (scanned before parsing, so no stack is at risk). */
function textTooDeep(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > limit) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

function valueTooDeep(value: unknown, limit: number): boolean {
  const seen = new Set<object>();
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    if (d > limit) return true;
    seen.add(v);
    for (const child of Object.values(v))
      if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
  }
  return false;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const isJsonType = (ct: string) => /^\s*application\/([\w.+-]*\+)?json\s*(;|$)/i.test(ct);

type BodyRead = { ok: true; value: unknown; raw?: Buffer } | { ok: false; issue: ValidationIssue };

/** Decodes the request body the way the route wants it (JSON unless it consumes multipart). */
function readBody(route: Route, body: unknown, headers: Record<string, string>, maxDepth: number): BodyRead {
  const bytes = Buffer.isBuffer(body) ? body : body instanceof Uint8Array ? Buffer.from(body) : undefined;
  if (route.consumes === 'multipart') return { ok: true, value: bytes ?? body, raw: bytes };
  const contentType = headers['content-type'];
  const required = route.body !== undefined;
  if (required && contentType !== undefined && contentType !== '' && !isJsonType(contentType)) {
    return { ok: false, issue: ISSUES.notADict() };
  }
  let text: string | undefined;
  if (bytes) {
    try {
      text = utf8.decode(bytes);
    } catch {
      return required ? { ok: false, issue: ISSUES.invalidUtf8() } : { ok: true, value: undefined };
    }
  } else if (typeof body === 'string') text = body;
  if (text !== undefined) {
    if (text.trim() === '')
      return required ? { ok: false, issue: ISSUES.missingBody() } : { ok: true, value: undefined };
    if (textTooDeep(text, maxDepth)) return { ok: false, issue: ISSUES.tooDeep(maxDepth) };
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch (e) {
      return required ? { ok: false, issue: jsonDecodeIssue(text, e) } : { ok: true, value: text };
    }
    const unbounded = bodyBoundsIssue(value);
    return unbounded ? { ok: false, issue: unbounded } : { ok: true, value };
  }
  if (body === undefined || body === null) {
    return required ? { ok: false, issue: ISSUES.missingBody() } : { ok: true, value: body };
  }
  if (valueTooDeep(body, maxDepth)) return { ok: false, issue: ISSUES.tooDeep(maxDepth) };
  const unbounded = bodyBoundsIssue(body);
  return unbounded ? { ok: false, issue: unbounded } : { ok: true, value: body };
}

function parseWith<T>(
  schema: ZodType<T>,
  value: unknown,
  where: 'body' | 'query' | 'path',
  issues: ValidationIssue[],
) {
  const r = schema.safeParse(value, { reportInput: true });
  if (r.success) return r.data;
  issues.push(...toDetail(r.error.issues, where, schema as ZodType));
  return undefined;
}

function errorBody(details: string, correlationId: string) {
  return { details, correlation_id: correlationId };
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
  const router = opts.router ?? (defaultRouter ??= buildRouter(ROUTES));
  const started = performance.now();
  const options = engine.settings.facade;
  const correlationId = options.correlationId?.() ?? randomBytes(16).toString('hex');
  const baseHeaders: Record<string, string> = {
    'content-type': 'application/json',
    'x-correlation-id': correlationId,
  };
  const respond = (status: number, body: unknown, headers: Record<string, string> = {}): FacadeResponse => ({
    status,
    headers: { ...baseHeaders, ...headers },
    body,
  });
  const fail = (status: number, details: string, headers: Record<string, string> = {}) =>
    respond(status, errorBody(details, correlationId), headers);
  /** The documented 429 body, for the per-key rate limit and the per-address failed-auth limit. */
  const tooMany = (message: string, seconds: number, headers: Record<string, string>) =>
    respond(
      429,
      {
        error: 'rate_limit_exceeded',
        message: `${message} Please retry after ${seconds} seconds.`,
        retry_after: seconds,
        correlation_id: correlationId,
      },
      headers,
    );

  let rate: Record<string, string> = {};
  try {
    const method = typeof request.method === 'string' ? request.method.toUpperCase() : '';
    if (typeof request.path !== 'string' || !request.path.startsWith('/')) return fail(404, 'Not found');
    const headers = lowerHeaders(request.headers);
    const { path, query } = splitPath(request.path, request.query);
    const found = router.match(method, path);
    if (found.kind === 'not_found') return fail(404, `Not found: ${path}`);
    if (found.kind === 'method_not_allowed') {
      return fail(405, `Method ${method} not allowed on ${path}`, { allow: found.allow.join(', ') });
    }
    const { route, params, version } = found;

    let account: Account | null = null;
    let keyId: string | null = null;
    if ((route.auth ?? 'api_key') === 'api_key') {
      // Checked before the key is even looked at: an address over its failure budget cannot keep trying.
      const address = opts.account ? undefined : request.clientAddress;
      const failures = address === undefined ? null : authFailureLimiterFor(engine);
      const blocked = failures ? failures.blockedFor(address!, engine.now()) : 0;
      if (blocked > 0) {
        return tooMany('Too many failed authentications.', blocked, { 'retry-after': String(blocked) });
      }
      const auth = opts.account
        ? {
            ok: true as const,
            account: opts.account,
            keyId: opts.keyId ?? `account:${opts.account.account_id}`,
          }
        : authenticate(engine, headers['api_key']);
      if (!auth.ok) {
        failures?.fail(address!, engine.now());
        const details =
          auth.reason === 'missing'
            ? 'API key is missing. Send it in the api_key header.'
            : ERROR_CODES.UNAUTHORIZED.message;
        return fail(401, details, { 'www-authenticate': WWW_AUTHENTICATE });
      }
      const limiter = limiterFor(engine);
      if (limiter) {
        const decision = limiter.take(auth.keyId, engine.now());
        rate = rateLimitHeaders(decision);
        if (!decision.ok) {
          return tooMany('API rate limit exceeded.', decision.retryAfter, rate);
        }
      }
      account = auth.account;
      keyId = auth.keyId;
      const entitled = (e: string) =>
        account!.entitlements.includes('*') || account!.entitlements.includes(e);
      if (route.entitlement && !entitled(route.entitlement))
        return fail(403, ERROR_CODES.FORBIDDEN.message, rate);
      if (params.partner_id !== undefined && params.partner_id !== account.partner_id) {
        return fail(403, ERROR_CODES.FORBIDDEN.message, rate);
      }
    }

    const issues: ValidationIssue[] = [];
    const parsedParams = route.params ? parseWith(route.params, params, 'path', issues) : params;
    const parsedQuery = route.query ? parseWith(route.query, query, 'query', issues) : query;
    let body: unknown = undefined;
    let rawBody: Buffer | undefined;
    if (route.body !== undefined || route.consumes === 'multipart' || request.body !== undefined) {
      const read = readBody(route, request.body, headers, options.maxJsonDepth ?? DEFAULT_MAX_DEPTH);
      if (!read.ok) issues.push(read.issue);
      else {
        rawBody = read.raw;
        body = route.body ? parseWith(route.body, read.value, 'body', issues) : read.value;
      }
    }
    if (issues.length > 0) return respond(422, { detail: issues }, rate);

    const pending: PendingCharge[] = [];
    const billed: ChargeOutcome = { total_credits: 0, total_results: 0 };
    const scope = { account: account!, keyId, endpoint: route.path, correlationId };
    const flush = () => {
      if (pending.length === 0 || !account) return;
      const o = applyCharges(engine, scope, pending.splice(0));
      billed.total_credits += o.total_credits;
      billed.total_results += o.total_results;
    };
    const ctx: RouteContext = {
      engine,
      version,
      params: parsedParams as Record<string, string>,
      query: parsedQuery as Record<string, string | undefined>,
      headers,
      body,
      rawBody,
      account,
      correlationId,
      charge(operation, units) {
        if (units > 0) pending.push({ operation, units });
      },
      transaction<T>(fn: () => T): T {
        return engine.db
          .transaction(() => {
            const out = fn();
            flush();
            return out;
          })
          .immediate();
      },
    };
    const result: RouteResult = await route.handler(ctx);
    if (pending.length > 0) engine.db.transaction(flush).immediate();

    const status = result.status ?? 200;
    let out = result.body;
    const isObject = out !== null && typeof out === 'object' && !Array.isArray(out);
    if (isObject && (result.responseContext ?? path.startsWith('/v'))) {
      out = {
        response_context: responseContext(version, correlationId, result.miss ? 'miss' : 'success', started),
        ...(out as Record<string, unknown>),
      };
    }
    if (isObject && headers['credit-usage']?.trim().toLowerCase() === 'true') {
      out = { ...(out as Record<string, unknown>), credit_usage: { ...billed } };
    }
    return respond(status, out, { ...rate, ...result.headers });
  } catch (e) {
    return errorResponse(e, correlationId, respond, rate);
  }
}

function responseContext(
  version: ApiVersion,
  correlationId: string,
  status: 'success' | 'miss',
  started: number,
) {
  const seconds = Math.round(performance.now() - started) / 1000;
  const rc: Record<string, unknown> = {
    correlation_id: correlationId,
    request_status: status,
    time_took_in_seconds: seconds,
  };
  if (version === 2) rc.time_taken_in_seconds = seconds;
  return rc;
}

function errorResponse(
  e: unknown,
  correlationId: string,
  respond: (status: number, body: unknown, headers?: Record<string, string>) => FacadeResponse,
  rate: Record<string, string>,
): FacadeResponse {
  if (isEngineError(e)) {
    if (e.code === 'VALIDATION') return respond(422, { detail: e.issues }, rate);
    const headers: Record<string, string> = { ...rate };
    if (e.status === 401) headers['www-authenticate'] = WWW_AUTHENTICATE;
    if (e.status === 500) logInternal(e, correlationId);
    return respond(e.status, errorBody(e.message, correlationId), headers);
  }
  if (e instanceof ZodError) return respond(422, { detail: toDetail(e.issues, 'body') }, rate);
  if (e instanceof Error && 'code' in e && (e.code === 'SQLITE_BUSY' || e.code === 'SQLITE_LOCKED')) {
    return respond(503, errorBody('The service is busy. Please retry.', correlationId), {
      ...rate,
      'retry-after': '1',
    });
  }
  logInternal(e, correlationId);
  return respond(500, errorBody(ERROR_CODES.INTERNAL.message, correlationId), rate);
}

function logInternal(e: unknown, correlationId: string): void {
  // Requests are never logged (they carry keys); the error and its correlation id are enough.
  console.error(`prospectdb: internal error [${correlationId}]`, e);
}
