/**
 * One error type for the whole engine, with a table of stable codes. Only the facade turns an
 * `EngineError` into an HTTP status and body; the core throws and never formats responses.
 */

/** One entry of a 422 body, FastAPI/pydantic v1 style: where, what, and a machine-readable type. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  ctx?: Record<string, unknown>;
}

export const ERROR_CODES = {
  VALIDATION: { status: 422, message: 'Request validation failed' },
  BAD_REQUEST: { status: 400, message: 'Bad request' },
  UNAUTHORIZED: { status: 401, message: 'Invalid or missing API key' },
  API_KEY_MISSING: { status: 401, message: 'API key is missing. Send it in the api_key header.' },
  FORBIDDEN: { status: 403, message: 'You are not entitled to perform this operation' },
  INSUFFICIENT_CREDITS: {
    status: 403,
    message: 'You have insufficient credits to perform this operation. Please purchase additional credits.',
  },
  NOT_FOUND: { status: 404, message: 'Not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  CONFLICT: { status: 409, message: 'Conflict' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body too large' },
  /** 429 bodies add "Please retry after N seconds." and `retry_after` (see `facade/stages/respond.ts`). */
  RATE_LIMITED: { status: 429, message: 'API rate limit exceeded.' },
  AUTH_FAILURES_LIMITED: { status: 429, message: 'Too many failed authentications.' },
  NOT_IMPLEMENTED: { status: 501, message: 'This route is not implemented yet' },
  INTERNAL: { status: 500, message: 'An internal server error occurred' },
  SERVICE_BUSY: { status: 503, message: 'The service is busy. Please retry.' },
  SNAPSHOT_NOT_FOUND: { status: 400, message: 'Snapshot files not found' },
  SNAPSHOT_INVALID: { status: 400, message: 'Snapshot refused: it holds invalid records' },
  ENGINE_CLOSED: { status: 500, message: 'The engine is closed' },
  /** A database file in an older layout (`store/migrate.ts` words the fix). */
  SCHEMA_OUTDATED: { status: 500, message: 'The database file was written in an older layout' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The one error type of the engine: a stable `code` (`ERROR_CODES`), the HTTP `status` the facade
 * answers with, and for `VALIDATION` the `issues` a 422 body lists as `detail`; an error it wraps
 * (a file system or SQLite error) is its `cause`.
 * @example
 * try { openEngine({ readOnly: true } as never); }
 * catch (e) { if (e instanceof EngineError) console.log(e.message); } // Misspelled option "readOnly" should be "readonly"
 */
export class EngineError extends Error {
  override readonly name = 'EngineError';
  readonly code: ErrorCode;
  readonly status: number;
  /** Validation issues (422) or any structured detail a caller may want. */
  readonly issues: ValidationIssue[];
  readonly detail: unknown;

  constructor(
    code: ErrorCode,
    message?: string,
    options: { issues?: ValidationIssue[]; detail?: unknown; cause?: unknown } = {},
  ) {
    // `cause` keeps the underlying error (a file system or SQLite error) for whoever logs this one.
    super(
      message ?? ERROR_CODES[code].message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.issues = options.issues ?? [];
    this.detail = options.detail;
  }

  /** A 422 with one or more issues. */
  static validation(issues: ValidationIssue[]): EngineError {
    return new EngineError('VALIDATION', issues[0]?.msg ?? ERROR_CODES.VALIDATION.message, { issues });
  }
}

/**
 * Whether a thrown value is the engine's `EngineError` (with `code`, `status`, and for a refused input
 * the 422 `issues`: `loc`, `msg`, `type`).
 * @example try { fetchProspects(engine, request); } catch (e) { if (isEngineError(e)) console.log(e.code, e.issues); }
 */
export function isEngineError(e: unknown): e is EngineError {
  return e instanceof EngineError;
}
