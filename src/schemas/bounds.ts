/**
 * Request bounds and the lenient readings real clients rely on, shared by every request schema.
 *
 * Bounds: every string, list and number of a request has a documented maximum (the README's "Limits"
 * table lists them); beyond it the request is a 422 with the pydantic-style `detail` entry. Lists are
 * checked for length before their items are parsed, so a list of 10,000 bad values costs one check,
 * not 10,000 item errors.
 *
 * Leniency (what the live pydantic server accepts): booleans as `"true"`/`"false"` (and the other
 * pydantic spellings), and enumeration values in any case.
 */
import { z } from 'zod';

/** The maxima of request fields (also the README's "Limits" table). */
export const LIMITS = {
  /** Company names (match `name` / `company_name`, `company_name` filter values): the live schema's 256. */
  name: 256,
  /** Person names (`full_name`). */
  personName: 256,
  /** E-mail addresses (RFC 5321). */
  email: 320,
  /** Phone numbers. */
  phone: 64,
  /** URLs, domains and LinkedIn addresses (the live `domain` maxLength). */
  url: 2_048,
  /** Free-text filter values (categories, cities, keywords, job titles, tech, topics). */
  text: 256,
  /** Enumeration values and other short codes (before the enumeration check). */
  code: 64,
  /** Autocomplete `query`. */
  query: 200,
  /** Items of a filter's `values` (job titles: 300, business ids: 10,000, as the live schema says). */
  filterValues: 1_000,
  /** `region_country_code` values (there are 4,883 region codes). */
  regionValues: 5_000,
  /** `business_id` filter values (live schema). */
  businessIds: 10_000,
  /** Event types in one request (39 business types plus spellings). */
  eventTypes: 100,
  /** `exclude` ids (live schema). */
  exclude: 1_000,
  /** `next_cursor` characters. */
  cursor: 512,
  /** Range filter bounds (`gte`, `lte`, months). */
  rangeValue: 1_000_000,
  /** Members of `request_context` and other free objects. */
  contextKeys: 100,
  /** Generic identifier strings (`enrollment_id`, `list_id`, `webhook_id`, `partner_id`, …). */
  id: 256,
  /** Any string anywhere in a JSON body, before the schema (the longest documented field is far shorter). */
  anyString: 65_536,
  /** Any list anywhere in a JSON body, before the schema (the longest documented list is 10,000 ids). */
  anyList: 10_000,
  /** Values (strings, numbers, lists, objects …) in one JSON body. */
  bodyNodes: 200_000,
} as const;

const TRUE = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE = new Set(['false', '0', 'no', 'off', 'f', 'n']);

/**
 * A boolean the pydantic way: `true`/`false`, or a string `"true"`/`"false"`, `"1"`/`"0"`,
 * `"yes"`/`"no"`, `"on"`/`"off"` (any case), or the numbers 1 and 0.
 * @example Bool.parse('True') // true
 */
export const Bool = z.union([z.boolean(), z.string(), z.number()]).transform((v, ctx): boolean => {
  if (typeof v === 'boolean') return v;
  const s = typeof v === 'string' && v.length <= 8 ? v.trim().toLowerCase() : String(v);
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  ctx.addIssue({
    code: 'custom',
    message: 'value could not be parsed to a boolean',
    params: { type: 'type_error.bool' },
    input: v,
  });
  return z.NEVER;
});

/**
 * An enumeration read in any case (and trimmed): `"10m-25m"` is `"10M-25M"`. A value of no member is a
 * 422 listing the permitted values, as before.
 */
export function anyCase<const T extends readonly [string, ...string[]]>(values: T) {
  const byFolded = new Map(values.map((v) => [v.toLowerCase(), v]));
  const exact = z.enum(values);
  return z.union([
    exact,
    z
      .string()
      .max(LIMITS.code)
      .transform((s) => byFolded.get(s.trim().toLowerCase()) ?? s)
      .pipe(exact),
  ]);
}

/**
 * A list whose length is checked before its items are parsed. The JSON Schema (tool servers) still
 * shows the items' schema: made when a JSON Schema is first asked for, not when the list is (every
 * request schema has lists, and the items' JSON Schema cost every process ~50 ms of CPU at import).
 */
export function list<T extends z.ZodType>(item: T, max: number, min = 0) {
  let guard = z.array(z.unknown()).max(max);
  let full = z.array(item).max(max);
  if (min > 0) {
    guard = guard.min(min);
    full = full.min(min);
  }
  let items: Record<string, unknown> | undefined;
  const meta = {};
  Object.defineProperty(meta, 'items', {
    enumerable: true,
    get() {
      if (items === undefined) {
        const { $schema: _ignored, ...schema } = z.toJSONSchema(item, {
          io: 'input',
          unrepresentable: 'any',
        });
        items = schema;
      }
      return items;
    },
  });
  return guard.meta(meta).pipe(full);
}

/** A free object (`request_context`, `custom_fields`) of at most {@link LIMITS.contextKeys} members. */
export const FreeObject = z
  .record(z.string().max(LIMITS.id), z.unknown())
  .refine((o) => Object.keys(o).length <= LIMITS.contextKeys, {
    message: `ensure this object has at most ${LIMITS.contextKeys} members`,
    params: { type: 'value_error.dict.max_items', ctx: { limit_value: LIMITS.contextKeys } },
  });
