/**
 * Caller output schemas: compiled with ajv (cached by text), an invalid schema is a 422. Results are
 * validated against the schema with `null` allowed wherever a value is typed, because null is how a
 * provider says "the data holds no answer".
 *
 * Caller regexes (`pattern`, `patternProperties`, the `regex` format) never reach the backtracking
 * engine of V8: ajv runs them through re2js, a linear-time RE2 port (`^(a+)+$` against 34 "a" and a "!"
 * held the event loop indefinitely with `RegExp`). What RE2 cannot run in linear time (lookaround,
 * backreferences, huge counted repeats) is refused with a 422. Size bounds are checked before this, by
 * the request schema (`OUTPUT_SCHEMA_LIMITS`).
 */
import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import type { RE2JS as RE2JSClass } from 're2js';
import { EngineError } from '../../errors.js';

/**
 * ajv, ajv-formats and re2js load on the first compile, not with the package: together they cost
 * ~0.1–0.2 s to import and only research requests use them. `require` (all three ship CommonJS) keeps
 * the compile synchronous, as the job-submission check needs it.
 */
const require = createRequire(import.meta.url);
let libs: { Ajv: typeof Ajv; addFormats: (ajv: Ajv) => Ajv; RE2JS: typeof RE2JSClass } | undefined;
function load(): NonNullable<typeof libs> {
  libs ??= {
    Ajv: (require('ajv') as { Ajv: typeof Ajv }).Ajv,
    addFormats: (require('ajv-formats') as { default: (ajv: Ajv) => Ajv }).default,
    RE2JS: (require('re2js') as { RE2JS: typeof RE2JSClass }).RE2JS,
  };
  return libs;
}

/** A caller regex RE2 cannot run; `compileOutputSchema` turns it into a 422 naming the pattern. */
class UnsupportedPattern extends Error {}

/** Compiles a caller regex (JavaScript syntax) with RE2; throws `UnsupportedPattern` when it cannot. */
function linearRegExp(pattern: string): RE2JSClass {
  const { RE2JS } = load();
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (e) {
    throw new UnsupportedPattern(
      `pattern ${JSON.stringify(pattern)} is not supported by the linear-time regex engine (RE2 syntax: no lookaround or backreferences): ${(e as Error).message}`,
    );
  }
}
/** ajv's `code.regExp` engine: `{ test }` objects, as ajv documents for `re2`. */
const regExp = Object.assign((pattern: string) => linearRegExp(pattern), {
  code: 'require("re2js").RE2JS.compile',
});

/**
 * A fresh ajv for each generation of the cache: ajv keeps every schema and pattern it has compiled, so
 * the instance is dropped with the cache to bound memory whatever schemas callers send.
 */
function newAjv(): Ajv {
  const { Ajv, addFormats, RE2JS } = load();
  const ajv = addFormats(
    new Ajv({ strict: false, allErrors: true, allowMatchingProperties: true, code: { regExp } }),
  );
  ajv.addFormat('regex', {
    type: 'string',
    validate: (s: string) => {
      try {
        RE2JS.compile(RE2JS.translateRegExp(s));
        return true;
      } catch {
        return false;
      }
    },
  });
  return ajv;
}
// Cache (module-level on purpose: engine-independent): one compiler, made on the first compile, and
// compiled schemas by JSON text, bounded by CACHE_LIMIT.
let ajv: Ajv | undefined;
const cache = new Map<string, ValidateFunction>();
const CACHE_LIMIT = 200;

type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy of `schema` where every typed value may also be null. */
export function nullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullable);
  if (!isObject(schema)) return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'properties' || k === 'patternProperties' || k === '$defs' || k === 'definitions') {
      out[k] = isObject(v) ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, nullable(s)])) : v;
    } else if (k === 'enum' || k === 'const' || k === 'required' || k === 'default' || k === 'examples')
      out[k] = v;
    else out[k] = nullable(v);
  }
  if (typeof out.type === 'string' && out.type !== 'null') out.type = [out.type, 'null'];
  else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if ('const' in out) {
    out.enum = [out.const, null];
    delete out.const;
  }
  return out;
}

/**
 * Compiles a caller's output schema (nullable form); throws a 422 at `loc` when it is not a JSON Schema.
 * @example compileOutputSchema({ type: 'object', properties: { ceo: { type: 'string' } } })({ ceo: null }) // true
 */
export function compileOutputSchema(
  schema: Record<string, unknown>,
  loc: (string | number)[] = ['body', 'parameters', 'output_schema'],
): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit;
  if (cache.size >= CACHE_LIMIT) {
    cache.clear();
    ajv = undefined;
  }
  ajv ??= newAjv();
  let fn: ValidateFunction;
  try {
    fn = ajv.compile(nullable(schema) as Schema);
  } catch (e) {
    const unsupported = e instanceof UnsupportedPattern;
    throw EngineError.validation([
      {
        loc,
        msg: unsupported ? e.message : `output_schema is not a valid JSON Schema: ${(e as Error).message}`,
        type: unsupported ? 'value_error.output_schema.pattern' : 'value_error.json_schema',
      },
    ]);
  }
  cache.set(key, fn);
  return fn;
}

/** ajv errors as one line. */
export const describeErrors = (fn: ValidateFunction) =>
  (fn.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
