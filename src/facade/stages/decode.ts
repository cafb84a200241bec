/**
 * Stage 1, decode: the raw request as the pipeline reads it. Header names lower-cased, the path split
 * from its query string, the route found (404 / 405 otherwise); and, for the validate stage, the body
 * decoded the way its route wants it (JSON with a depth limit checked before parsing, or raw bytes).
 */
import type { ValidationIssue } from '../../errors.js';
import type { Router } from '../router.js';
import type { ApiVersion, FacadeRequest, HeaderValue, Route } from '../types.js';
import { bodyBoundsIssue, ISSUES, jsonDecodeIssue, valueTooDeep } from '../validation.js';
import type { Refusal } from './respond.js';

export interface Decoded {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  route: Route;
  params: Record<string, string>;
  version: ApiVersion;
}

export type DecodeOutcome = { ok: true; request: Decoded } | { ok: false; refusal: Refusal };

/** Finds the route of a request; a path the router does not know is 404, a wrong method 405. */
export function decodeRequest(request: FacadeRequest, router: Router): DecodeOutcome {
  const method = typeof request.method === 'string' ? request.method.toUpperCase() : '';
  if (typeof request.path !== 'string' || !request.path.startsWith('/')) {
    return { ok: false, refusal: { code: 'NOT_FOUND' } };
  }
  const headers = lowerHeaders(request.headers);
  const { path, query } = splitPath(request.path, request.query);
  const found = router.match(method, path);
  if (found.kind === 'not_found')
    return { ok: false, refusal: { code: 'NOT_FOUND', message: `Not found: ${path}` } };
  if (found.kind === 'method_not_allowed') {
    return {
      ok: false,
      refusal: {
        code: 'METHOD_NOT_ALLOWED',
        message: `Method ${method} not allowed on ${path}`,
        headers: { allow: found.allow.join(', ') },
      },
    };
  }
  const { route, params, version } = found;
  return { ok: true, request: { method, path, query, headers, route, params, version } };
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

const utf8 = new TextDecoder('utf-8', { fatal: true });
const isJsonType = (ct: string) => /^\s*application\/([\w.+-]*\+)?json\s*(;|$)/i.test(ct);

export type BodyRead = { ok: true; value: unknown; raw?: Buffer } | { ok: false; issue: ValidationIssue };

/** Decodes the request body the way the route wants it (JSON unless it consumes multipart). */
export function decodeBody(
  route: Route,
  body: unknown,
  headers: Record<string, string>,
  maxDepth: number,
): BodyRead {
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
