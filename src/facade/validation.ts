/**
 * zod issues → the FastAPI/pydantic-v1 `detail` entries of a 422 body (`loc`, `msg`, `type`, `ctx`).
 * The live service is a FastAPI app, so clients parse these exact `type` strings
 * (`value_error.missing`, `type_error.enumeration`, `value_error.number.not_le` …).
 */
import type { core, ZodType } from 'zod';
import type { ValidationIssue } from '../errors.js';
import { LIMITS } from '../schemas/bounds.js';

/** Where an entry's `loc` starts: a part of an HTTP request, or (library calls) `options` and the like. */
type Where = 'body' | 'query' | 'path' | 'header' | 'options';
type Issue = core.$ZodIssue;
type Loc = (string | number)[];

const TYPE_ERRORS: Record<string, [type: string, msg: string]> = {
  int: ['type_error.integer', 'value is not a valid integer'],
  number: ['type_error.float', 'value is not a valid float'],
  string: ['type_error.str', 'str type expected'],
  boolean: ['type_error.bool', 'value could not be parsed to a boolean'],
  array: ['type_error.list', 'value is not a valid list'],
  object: ['type_error.dict', 'value is not a valid dict'],
  record: ['type_error.dict', 'value is not a valid dict'],
  map: ['type_error.dict', 'value is not a valid dict'],
  tuple: ['type_error.list', 'value is not a valid list'],
  date: ['type_error.datetime', 'invalid datetime format'],
  null: ['type_error.none.allowed', 'value is not none'],
};

const quote = (v: unknown) => (typeof v === 'string' ? `'${v}'` : String(v));

function received(issue: Issue): 'undefined' | 'null' | 'other' {
  if ('input' in issue) {
    if (issue.input === undefined) return 'undefined';
    if (issue.input === null) return 'null';
    return 'other';
  }
  if (/received undefined$/.test(issue.message)) return 'undefined';
  if (issue.code !== 'invalid_type') return 'other';
  if (/received null$/.test(issue.message)) return 'null';
  return 'other';
}

/** The deepest branch of a failed union: the one that got furthest explains the error best. */
function bestBranch(branches: Issue[][]): Issue[] {
  let best: Issue[] = branches[0] ?? [];
  let bestDepth = -1;
  for (const b of branches) {
    const depth = Math.max(-1, ...b.map((i) => i.path.length + (i.code === 'invalid_type' ? 0 : 0.5)));
    if (depth > bestDepth) {
      best = b;
      bestDepth = depth;
    }
  }
  return best;
}

const MISSING_CAN_BE = new Set(['invalid_type', 'invalid_value', 'invalid_union']);

function mapIssue(issue: Issue, loc: Loc, out: ValidationIssue[], root?: ZodType): void {
  if (MISSING_CAN_BE.has(issue.code) && received(issue) === 'undefined') {
    out.push({ loc, msg: 'field required', type: 'value_error.missing' });
    return;
  }
  switch (issue.code) {
    case 'invalid_type': {
      const r = received(issue);
      if (r === 'undefined') out.push({ loc, msg: 'field required', type: 'value_error.missing' });
      else if (r === 'null')
        out.push({ loc, msg: 'none is not an allowed value', type: 'type_error.none.not_allowed' });
      else {
        const expected =
          issue.expected === 'number' && expectsInt(root, loc.slice(1)) ? 'int' : issue.expected;
        const [type, msg] = TYPE_ERRORS[expected] ?? [
          'type_error',
          `invalid type: expected ${issue.expected}`,
        ];
        out.push({ loc, msg, type });
      }
      return;
    }
    case 'too_big':
    case 'too_small': {
      const big = issue.code === 'too_big';
      const limit = Number(
        big ? (issue as core.$ZodIssueTooBig).maximum : (issue as core.$ZodIssueTooSmall).minimum,
      );
      const inclusive = issue.inclusive ?? true;
      const ctx = { limit_value: limit };
      if (issue.origin === 'array' || issue.origin === 'set') {
        const word = big ? 'most' : 'least';
        out.push({
          loc,
          msg: `ensure this value has at ${word} ${limit} items`,
          type: `value_error.list.${big ? 'max' : 'min'}_items`,
          ctx,
        });
      } else if (issue.origin === 'string') {
        const word = big ? 'most' : 'least';
        out.push({
          loc,
          msg: `ensure this value has at ${word} ${limit} characters`,
          type: `value_error.any_str.${big ? 'max' : 'min'}_length`,
          ctx,
        });
      } else {
        const suffix = big ? (inclusive ? 'not_le' : 'not_lt') : inclusive ? 'not_ge' : 'not_gt';
        const words = {
          not_le: 'less than or equal to',
          not_lt: 'less than',
          not_ge: 'greater than or equal to',
          not_gt: 'greater than',
        };
        out.push({
          loc,
          msg: `ensure this value is ${words[suffix]} ${limit}`,
          type: `value_error.number.${suffix}`,
          ctx,
        });
      }
      return;
    }
    case 'invalid_value': {
      const values = issue.values as unknown[];
      if (values.length === 1) {
        out.push({
          loc,
          msg: `unexpected value; permitted: ${quote(values[0])}`,
          type: 'value_error.const',
          ctx: { given: 'input' in issue ? issue.input : undefined, permitted: values },
        });
      } else {
        out.push({
          loc,
          msg: `value is not a valid enumeration member; permitted: ${values.map(quote).join(', ')}`,
          type: 'type_error.enumeration',
          ctx: { enum_values: values },
        });
      }
      return;
    }
    case 'unrecognized_keys':
      for (const key of issue.keys)
        out.push({ loc: [...loc, key], msg: 'extra fields not permitted', type: 'value_error.extra' });
      return;
    case 'invalid_format': {
      if (issue.format === 'regex') {
        const pattern = String(issue.pattern ?? '').replace(/^\/(.*)\/[a-z]*$/, '$1');
        out.push({
          loc,
          msg: `string does not match regex "${pattern}"`,
          type: 'value_error.str.regex',
          ctx: { pattern },
        });
      } else if (issue.format === 'datetime' || issue.format === 'date') {
        out.push({ loc, msg: `invalid ${issue.format} format`, type: `value_error.${issue.format}` });
      } else {
        out.push({ loc, msg: `value is not a valid ${issue.format}`, type: `value_error.${issue.format}` });
      }
      return;
    }
    case 'not_multiple_of':
      out.push({
        loc,
        msg: `ensure this value is a multiple of ${String(issue.divisor)}`,
        type: 'value_error.number.not_multiple',
        ctx: { multiple_of: issue.divisor },
      });
      return;
    case 'invalid_union': {
      const branches = issue.errors;
      if (branches.length === 0) {
        out.push({ loc, msg: issue.message, type: 'value_error' });
        return;
      }
      for (const sub of bestBranch(branches)) mapIssue(sub, [...loc, ...sub.path.map(pathKey)], out, root);
      return;
    }
    case 'invalid_key':
    case 'invalid_element':
      for (const sub of issue.issues) mapIssue(sub, [...loc, ...sub.path.map(pathKey)], out, root);
      return;
    case 'custom': {
      const params = (issue.params ?? {}) as { type?: string; ctx?: Record<string, unknown> };
      const entry: ValidationIssue = {
        loc: loc.length === 1 ? [...loc, '__root__'] : loc,
        msg: issue.message,
        type: params.type ?? 'value_error',
      };
      if (params.ctx) entry.ctx = params.ctx;
      out.push(entry);
      return;
    }
    default:
      out.push({ loc, msg: (issue as Issue).message, type: 'value_error' });
  }
}

const pathKey = (k: PropertyKey): string | number => (typeof k === 'number' ? k : String(k));

interface Def {
  type: string;
  shape?: Record<string, ZodType>;
  element?: ZodType;
  innerType?: ZodType;
  in?: ZodType;
  valueType?: ZodType;
  getter?: () => ZodType;
  format?: string;
  checks?: { _zod: { def: { format?: string } } }[];
}
const defOf = (s: ZodType) => (s as unknown as { _zod: { def: Def; bag: { format?: string } } })._zod;

/**
 * zod reports "expected number" for a string sent to an integer field; pydantic says "not a valid
 * integer". Walk the schema to the issue's path to tell the two apart.
 */
function expectsInt(root: ZodType | undefined, path: Loc): boolean {
  let s = root;
  for (let i = 0, guard = 0; s && guard < 256; guard++) {
    const z = defOf(s);
    const def = z.def;
    const wrapped = def.innerType ?? def.in ?? (def.type === 'lazy' ? def.getter?.() : undefined);
    if (wrapped) {
      s = wrapped;
      continue;
    }
    if (i === path.length) {
      const formats = [z.bag.format, def.format, ...(def.checks ?? []).map((c) => c._zod.def.format)];
      return def.type === 'number' && formats.some((f) => f !== undefined && /int/.test(f));
    }
    const key = path[i++]!;
    if (def.type === 'object') s = def.shape?.[String(key)];
    else if (def.type === 'array') s = def.element;
    else if (def.type === 'record') s = def.valueType;
    else return false;
  }
  return false;
}

/** Entries of one 422 `detail` list: enough to fix a request, never a multi-megabyte answer. */
export const MAX_DETAIL = 50;

/** Maps zod issues to pydantic-style entries whose `loc` starts with `where` (at most {@link MAX_DETAIL}). */
export function toDetail(issues: readonly Issue[], where: Where, schema?: ZodType): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    if (out.length >= MAX_DETAIL) break;
    mapIssue(issue, [where, ...issue.path.map(pathKey)], out, schema);
  }
  return out.length > MAX_DETAIL ? out.slice(0, MAX_DETAIL) : out;
}

/**
 * The first bound a JSON body breaks before any schema reads it: a string longer than
 * `LIMITS.anyString`, a list longer than `LIMITS.anyList`, or more than `LIMITS.bodyNodes` values in
 * all. One linear walk, so no schema, regex or matcher ever sees an unbounded value.
 */
export function bodyBoundsIssue(value: unknown): ValidationIssue | null {
  interface Frame {
    v: unknown;
    parent: Frame | null;
    key: string | number;
  }
  const locOf = (f: Frame): Loc => {
    const out: Loc = [];
    for (let p: Frame | null = f; p && p.parent; p = p.parent) out.push(p.key);
    return ['body', ...out.reverse()];
  };
  const tooBig = (f: Frame, what: 'characters' | 'items', limit: number): ValidationIssue => ({
    loc: locOf(f),
    msg: `ensure this value has at most ${limit} ${what}`,
    type: what === 'items' ? 'value_error.list.max_items' : 'value_error.any_str.max_length',
    ctx: { limit_value: limit },
  });
  const stack: Frame[] = [{ v: value, parent: null, key: '' }];
  let nodes = 0;
  while (stack.length > 0) {
    const f = stack.pop()!;
    const v = f.v;
    if (++nodes > LIMITS.bodyNodes) {
      return {
        loc: ['body'],
        msg: `ensure the body holds at most ${LIMITS.bodyNodes} values`,
        type: 'value_error.body.max_values',
        ctx: { limit_value: LIMITS.bodyNodes },
      };
    }
    if (typeof v === 'string') {
      if (v.length > LIMITS.anyString) return tooBig(f, 'characters', LIMITS.anyString);
    } else if (Array.isArray(v)) {
      if (v.length > LIMITS.anyList) return tooBig(f, 'items', LIMITS.anyList);
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], parent: f, key: i });
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      if (keys.length > LIMITS.anyList) return tooBig(f, 'items', LIMITS.anyList);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        if (k.length > LIMITS.anyString) return tooBig(f, 'characters', LIMITS.anyString);
        stack.push({ v: (v as Record<string, unknown>)[k], parent: f, key: k });
      }
    }
  }
  return null;
}

/** True when a value (a body given as an object, not as text) nests deeper than `limit`. */
export function valueTooDeep(value: unknown, limit: number): boolean {
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

/** The 422 entry of a body that is not JSON (as FastAPI reports `json.loads` failures). */
export function jsonDecodeIssue(text: string, error: unknown): ValidationIssue {
  const message = error instanceof Error ? error.message : String(error);
  const m = /position (\d+)/.exec(message);
  const pos = m
    ? Number(m[1])
    : /end of JSON/i.test(message)
      ? text.length
      : Math.max(0, text.search(/\S|$/));
  const before = text.slice(0, pos);
  const lineno = before.split('\n').length;
  const colno = pos - before.lastIndexOf('\n');
  const reason = text.trim() === '' ? 'Expecting value' : 'Invalid JSON';
  return {
    loc: ['body', pos],
    msg: `${reason}: line ${lineno} column ${colno} (char ${pos})`,
    type: 'value_error.jsondecode',
    ctx: { msg: reason, pos, lineno, colno },
  };
}

export const ISSUES = {
  missingBody: (): ValidationIssue => ({ loc: ['body'], msg: 'field required', type: 'value_error.missing' }),
  notADict: (): ValidationIssue => ({
    loc: ['body'],
    msg: 'value is not a valid dict',
    type: 'type_error.dict',
  }),
  invalidUtf8: (): ValidationIssue => ({
    loc: ['body', 0],
    msg: 'Invalid UTF-8 in request body',
    type: 'value_error.jsondecode',
    ctx: { msg: 'Invalid UTF-8', pos: 0, lineno: 1, colno: 1 },
  }),
  tooDeep: (limit: number): ValidationIssue => ({
    loc: ['body'],
    msg: `JSON nesting deeper than ${limit} levels`,
    type: 'value_error.jsondecode',
    ctx: { limit_value: limit },
  }),
};
