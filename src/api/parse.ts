/**
 * The library's boundary check: a request parsed by the route's own zod schema after the body checks
 * the facade makes first (nesting depth, then `LIMITS`' bounds on every string and list), so a library
 * call is refused exactly when the same value sent as a JSON body would get a 422, with the same
 * `detail` entries (`loc`, `msg`, `type`) as the `issues` of the thrown `EngineError`. Each request
 * is parsed once, at the call; the core trusts the parsed value.
 */
import type { ZodType } from 'zod';
import { EngineError, type ValidationIssue } from '../errors.js';
import { bodyBoundsIssue, ISSUES, toDetail, valueTooDeep } from '../facade/validation.js';

/** The facade's default nesting limit (`FacadeOptions.maxJsonDepth`). */
const MAX_DEPTH = 64;

export interface ParseOptions {
  /** The first `loc` member, as the facade's 422 says it: `body` (default) or `query`. */
  where?: 'body' | 'query';
  /**
   * Apply the facade's whole-body bounds (`LIMITS.anyList`, `anyString`, `bodyNodes`) before the
   * schema (default true). Off where a library call may pass more than one HTTP body holds (an
   * export's `exclude`); the schema's own bounds still apply.
   */
  bounds?: boolean;
}

/**
 * `value` parsed by `schema`, as the facade's validate stage parses a body (`where: 'body'`) or a
 * query (`'query'`); throws `EngineError` `VALIDATION` with the 422 `detail` entries otherwise.
 */
export function parseRequest<S extends ZodType>(
  schema: S,
  value: unknown,
  { where = 'body', bounds = true }: ParseOptions = {},
): S['_zod']['output'] {
  if (where === 'body') {
    if (value === undefined || value === null) throw refused([ISSUES.missingBody()]);
    if (valueTooDeep(value, MAX_DEPTH)) throw refused([ISSUES.tooDeep(MAX_DEPTH)]);
    const unbounded = bounds ? bodyBoundsIssue(value) : null;
    if (unbounded) throw refused([unbounded]);
  }
  const r = schema.safeParse(value, { reportInput: true });
  if (r.success) return r.data;
  throw refused(toDetail(r.error.issues, where, schema));
}

/** An options argument parsed by `schema`; issues start with `options` (`['options', 'version']`). */
export function parseOptions<S extends ZodType>(schema: S, value: unknown): S['_zod']['output'] {
  const r = schema.safeParse(value ?? {}, { reportInput: true });
  if (r.success) return r.data;
  throw refused(toDetail(r.error.issues, 'options', schema));
}

/** Refuses a first argument that is not an engine (or a context from one), before anything reads it. */
export function checkEngine(engine: unknown): void {
  const e = engine as { db?: unknown; indexes?: unknown } | null | undefined;
  if (e === null || typeof e !== 'object' || e.db === undefined || e.indexes === undefined) {
    throw refused([
      { loc: ['engine'], msg: 'expected an engine (from openEngine)', type: 'type_error.engine' },
    ]);
  }
}

/**
 * The `VALIDATION` error of a library call: its message says where the first issue is and how many
 * more there are (`body.filters.contry_code: extra fields not permitted`); `issues` holds them all.
 */
export function refused(issues: ValidationIssue[]): EngineError {
  const first = issues[0];
  const where = first ? `${first.loc.join('.')}: ${first.msg}` : undefined;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new EngineError('VALIDATION', where && where + more, { issues });
}
