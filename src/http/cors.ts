/**
 * CORS for the API, off unless origins are configured: then an allowed origin gets
 * `Access-Control-Allow-Origin` (its own value, never `*`, with `Vary: Origin`) on every answer, and its
 * preflight `OPTIONS` is answered 204 with the methods and headers the API takes. A request from any
 * other origin gets no CORS header at all, so the browser refuses to hand it the answer.
 */
import type { IncomingHttpHeaders } from 'node:http';

export interface CorsOptions {
  /** Allowed origins, e.g. `['https://app.example.com']`; `'*'` allows any origin. */
  origins: readonly string[];
}

const METHODS = 'GET, POST, PATCH, PUT, DELETE';
const ALLOWED_HEADERS = 'api_key, content-type, credit-usage';
const EXPOSED_HEADERS =
  'x-correlation-id, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after';

function allowed(cors: CorsOptions, origin: string | undefined): origin is string {
  return (
    origin !== undefined && origin !== '' && (cors.origins.includes('*') || cors.origins.includes(origin))
  );
}

/** Headers for an actual request from `origin` (none when it is not allowed). */
export function corsHeaders(cors: CorsOptions, origin: string | undefined): Record<string, string> {
  if (!allowed(cors, origin)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': EXPOSED_HEADERS,
    vary: 'Origin',
  };
}

/** The answer to a preflight from an allowed origin, or null when the request is not one. */
export function preflight(
  cors: CorsOptions,
  method: string | undefined,
  headers: IncomingHttpHeaders,
): { status: number; headers: Record<string, string> } | null {
  if (method !== 'OPTIONS' || headers['access-control-request-method'] === undefined) return null;
  if (!allowed(cors, headers.origin)) return null;
  return {
    status: 204,
    headers: {
      ...corsHeaders(cors, headers.origin),
      'access-control-allow-methods': METHODS,
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': '600',
    },
  };
}
