/**
 * Stage 3, validate: path parameters, query and body parsed by the route's zod schemas. Every issue of
 * every part is gathered into one 422 `detail`, so a client sees all its mistakes at once.
 */
import type { ZodType } from 'zod';
import type { ValidationIssue } from '../../errors.js';
import type { FacadeRequest } from '../types.js';
import { toDetail } from '../validation.js';
import { decodeBody, type Decoded } from './decode.js';
import type { Refusal } from './respond.js';

const DEFAULT_MAX_DEPTH = 64;

export interface Validated {
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  body: unknown;
  rawBody?: Buffer;
}

export type ValidateOutcome = { ok: true; input: Validated } | { ok: false; refusal: Refusal };

export function validateRequest(
  decoded: Decoded,
  rawBody: FacadeRequest['body'],
  maxJsonDepth: number | undefined,
): ValidateOutcome {
  const { route } = decoded;
  const issues: ValidationIssue[] = [];
  const params = route.params ? parseWith(route.params, decoded.params, 'path', issues) : decoded.params;
  const query = route.query ? parseWith(route.query, decoded.query, 'query', issues) : decoded.query;
  let body: unknown = undefined;
  let raw: Buffer | undefined;
  if (route.body !== undefined || route.consumes === 'multipart' || rawBody !== undefined) {
    const read = decodeBody(route, rawBody, decoded.headers, maxJsonDepth ?? DEFAULT_MAX_DEPTH);
    if (!read.ok) issues.push(read.issue);
    else {
      raw = read.raw;
      body = route.body ? parseWith(route.body, read.value, 'body', issues) : read.value;
    }
  }
  if (issues.length > 0) return { ok: false, refusal: { code: 'VALIDATION', issues } };
  return {
    ok: true,
    input: {
      params: params as Record<string, string>,
      query: query as Record<string, string | undefined>,
      body,
      rawBody: raw,
    },
  };
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
