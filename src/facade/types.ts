/**
 * The facade contract: a request in, a response out, no socket. Routes are data (method, path, schemas,
 * handler); each area of the API (search, match, credits, events, webhooks, enrichments, jobs …) exports
 * its `Route[]` from `src/facade/routes/<area>.ts` and the router assembles them.
 */
import type { ZodType } from 'zod';
import type { Account } from '../account/types.js';
import type { Context } from '../runtime/context.js';
import type { ApiVersion } from '../schemas/version.js';

// Owned by the account layer, the schemas and the settings; re-exported for the facade's users.
export type { Account } from '../account/types.js';
export type { ApiVersion } from '../schemas/version.js';
export type { FacadeOptions } from '../runtime/settings.js';

export type HeaderValue = string | string[] | undefined;

export interface FacadeRequest {
  method: string;
  /** May carry a query string: `/v2/autocomplete?field=country&query=uni`. */
  path: string;
  query?: Record<string, HeaderValue>;
  /** Any case; the facade lower-cases names. */
  headers?: Record<string, HeaderValue>;
  /** Parsed JSON, a JSON string, or raw bytes (multipart uploads). */
  body?: unknown;
  /**
   * The caller's network address, set by the HTTP adapter: failed authentications are limited per
   * address. In-process callers leave it out (no limit applies to them).
   */
  clientAddress?: string;
}

export interface FacadeResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RouteContext<Body = unknown, Query = Record<string, string | undefined>> {
  engine: Context;
  /** 1 for `/v1/...`, 2 for `/v2/...`; 1 for the operational routes. */
  version: ApiVersion;
  /** Path parameters, e.g. `{ webhook_id: '…' }` for `/v2/webhooks/{webhook_id}`. */
  params: Record<string, string>;
  /** Query parsed by the route's `query` schema (raw strings when it has none). */
  query: Query;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Body parsed by the route's `body` schema (the raw body when it has none). */
  body: Body;
  /** Raw request body bytes when the request carried bytes (multipart). */
  rawBody?: Buffer;
  /** The authenticated account; routes with `auth: 'none'` get `null`. */
  account: Account | null;
  correlationId: string;
  /**
   * Queues a charge of `units` × the menu cost of `operation` (e.g. `('fetch', rows.length)`). Queued
   * charges are applied atomically with the handler's writes: inside `transaction`, or when the handler
   * returns. A balance that does not cover them fails the whole request with 403 and charges nothing.
   */
  charge(operation: string, units: number): void;
  /** Runs `fn` and the queued charges in one `ctx.state` transaction (rolled back on error). */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
}

export interface RouteResult {
  /** Default 200. */
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /**
   * Add `response_context` to an object body (default true for `/v1` and `/v2` routes). `request_status`
   * is `miss` when `miss` is true.
   */
  responseContext?: boolean;
  miss?: boolean;
}

// `any` defaults let one table hold routes whose bodies differ; each route's handler is typed by its schemas.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Route<Body = any, Query = any> {
  method: HttpMethod;
  /** Path template with `{param}` segments, as written in the spec's endpoint tables. */
  path: string;
  /** `api_key` (default) or `none` for the open operational routes. */
  auth?: 'api_key' | 'none';
  /** Entitlement the account must hold (403 otherwise). */
  entitlement?: string;
  /** zod schema of the JSON body; its issues become the 422 `detail` (loc starts with `body`). */
  body?: ZodType<Body>;
  /** zod schema of the query string (loc starts with `query`). */
  query?: ZodType<Query>;
  /** zod schema of the path parameters (loc starts with `path`); raw strings when absent. */
  params?: ZodType<Record<string, unknown>>;
  /** Content type the route takes; default JSON. */
  consumes?: 'json' | 'multipart';
  handler(ctx: RouteContext<Body, Query>): RouteResult | Promise<RouteResult>;
}
