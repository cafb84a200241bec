/**
 * Caller output schemas: compiled with ajv (cached by text), an invalid schema is a 422. Results are
 * validated against the schema with `null` allowed wherever a value is typed, because null is how a
 * provider says "the data holds no answer".
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { EngineError } from '../../errors.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
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
  let fn: ValidateFunction;
  try {
    fn = ajv.compile(nullable(schema) as Schema);
  } catch (e) {
    throw EngineError.validation([
      {
        loc,
        msg: `output_schema is not a valid JSON Schema: ${(e as Error).message}`,
        type: 'value_error.json_schema',
      },
    ]);
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, fn);
  return fn;
}

/** ajv errors as one line. */
export const describeErrors = (fn: ValidateFunction) =>
  (fn.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
