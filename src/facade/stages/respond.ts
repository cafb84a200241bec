/**
 * Stage 5, respond: the response a request gets. A success body gains `response_context` (and
 * `credit_usage` when asked); every refusal and every thrown error becomes a status and a body built
 * from the one error table (`src/errors.ts`), so no stage writes a status body by hand.
 */
import { ZodError } from 'zod';
import { ERROR_CODES, isEngineError, type ErrorCode, type ValidationIssue } from '../../errors.js';
import type { ChargeOutcome } from '../../account/credits.js';
import type { ApiVersion, FacadeResponse, RouteResult } from '../types.js';
import { toDetail } from '../validation.js';

const WWW_AUTHENTICATE = 'ApiKey realm="prospectdb", header="api_key"';

/** A request the pipeline refuses: a code of the error table, its message, and any extra headers. */
export interface Refusal {
  code: ErrorCode;
  /** Default: the table's message for `code`. */
  message?: string;
  /** 422 only: the `detail` entries. */
  issues?: ValidationIssue[];
  /** 429 only: seconds until a retry may succeed. */
  retryAfter?: number;
  headers?: Record<string, string>;
}

/**
 * The body of an error answer (`{details, correlation_id}`), for the adapters too: the HTTP server's
 * 413 and last-resort 500 have no correlation id, since they never reached the facade.
 */
export function errorBody(code: ErrorCode, message?: string, correlationId?: string) {
  const details = message ?? ERROR_CODES[code].message;
  return correlationId === undefined ? { details } : { details, correlation_id: correlationId };
}

/** Headers every answer carries. */
export function baseHeaders(correlationId: string): Record<string, string> {
  return { 'content-type': 'application/json', 'x-correlation-id': correlationId };
}

/** The status, headers and body of a refusal, from the error table. */
export function refusalResponse(refusal: Refusal, correlationId: string): FacadeResponse {
  const { code } = refusal;
  const status = ERROR_CODES[code].status;
  const message = refusal.message ?? ERROR_CODES[code].message;
  const headers = { ...baseHeaders(correlationId), ...refusal.headers };
  let body: unknown;
  if (code === 'VALIDATION') body = { detail: refusal.issues ?? [] };
  else if (status === 429) {
    // The live service's documented rate-limit body.
    const seconds = refusal.retryAfter ?? 60;
    body = {
      error: 'rate_limit_exceeded',
      message: `${message} Please retry after ${seconds} seconds.`,
      retry_after: seconds,
      correlation_id: correlationId,
    };
  } else body = errorBody(code, message, correlationId);
  if (status === 401) headers['www-authenticate'] = WWW_AUTHENTICATE;
  if (status === 503) headers['retry-after'] = '1';
  return { status, headers, body };
}

/** A thrown error as a refusal: engine errors keep their code, busy SQLite is 503, the rest 500. */
export function refusalOf(e: unknown, correlationId: string): Refusal {
  if (isEngineError(e)) {
    if (e.code === 'VALIDATION') return { code: 'VALIDATION', issues: e.issues };
    if (e.status === 500) logInternal(e, correlationId);
    return { code: e.code, message: e.message };
  }
  if (e instanceof ZodError) return { code: 'VALIDATION', issues: toDetail(e.issues, 'body') };
  if (e instanceof Error && 'code' in e && (e.code === 'SQLITE_BUSY' || e.code === 'SQLITE_LOCKED')) {
    return { code: 'SERVICE_BUSY' };
  }
  logInternal(e, correlationId);
  return { code: 'INTERNAL' };
}

function logInternal(e: unknown, correlationId: string): void {
  // Requests are never logged (they carry keys); the error and its correlation id are enough.
  console.error(`prospectdb: internal error [${correlationId}]`, e);
}

export interface Answered {
  result: RouteResult;
  billed: ChargeOutcome;
  version: ApiVersion;
  path: string;
  headers: Record<string, string>;
  correlationId: string;
  /** `performance.now()` when the request arrived. */
  started: number;
  rate: Record<string, string>;
}

/** The success answer of a handler: `response_context` first, `credit_usage` last when asked. */
export function successResponse(a: Answered): FacadeResponse {
  const { result } = a;
  let out = result.body;
  const isObject = out !== null && typeof out === 'object' && !Array.isArray(out);
  if (isObject && (result.responseContext ?? a.path.startsWith('/v'))) {
    out = {
      response_context: responseContext(
        a.version,
        a.correlationId,
        result.miss ? 'miss' : 'success',
        a.started,
      ),
      ...(out as Record<string, unknown>),
    };
  }
  if (isObject && a.headers['credit-usage']?.trim().toLowerCase() === 'true') {
    out = { ...(out as Record<string, unknown>), credit_usage: { ...a.billed } };
  }
  return {
    status: result.status ?? 200,
    headers: { ...baseHeaders(a.correlationId), ...a.rate, ...result.headers },
    body: out,
  };
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
