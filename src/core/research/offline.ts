/**
 * The default research provider: offline and deterministic. Each property of `output_schema` is answered
 * from the entity's record, its enrichments and the caller's `custom_fields`, by matching the property's
 * name (and, more weakly, its description) to field names, then coercing the value to the property's
 * type. A property the data cannot answer is null, and the answer lists it.
 */
import type { ResearchAnswer, ResearchProvider, ResearchTask } from './provider.js';

type Schema = Record<string, unknown>;
interface Fact {
  /** Path of field names, outermost first (`enrichments.funding_and_acquisition.investors`). */
  path: string[];
  value: unknown;
  /** custom_fields win over record fields. */
  custom: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const STOP = new Set([
  'the',
  'a',
  'an',
  'of',
  'in',
  'on',
  'for',
  'to',
  'and',
  'or',
  'is',
  'its',
  'their',
  'what',
  'which',
  'this',
  'that',
  'with',
  'by',
]);
/** Words too common in field names to identify a field on their own. */
const GENERIC = new Set([
  'name',
  'id',
  'type',
  'count',
  'number',
  'date',
  'value',
  'url',
  'code',
  'list',
  'total',
]);
const tokens = (s: string) =>
  s
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 1 && !STOP.has(t))
    .map((t) => (t.length > 3 && t.endsWith('s') ? t.slice(0, -1) : t));

function collect(value: unknown, path: string[], custom: boolean, out: Fact[], depth = 0): void {
  if (path.length > 0) out.push({ path, value, custom });
  if (depth > 6 || !isObject(value)) return;
  for (const [k, v] of Object.entries(value)) collect(v, [...path, k], custom, out, depth + 1);
}

function facts(record: unknown, custom: Record<string, unknown>): Fact[] {
  const out: Fact[] = [];
  collect(custom, [], true, out);
  collect(record, [], false, out);
  return out;
}

const typeOf = (s: Schema): string | undefined => {
  const t = s.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.find((x) => x !== 'null') as string | undefined;
  if (s.properties) return 'object';
  if (s.items) return 'array';
  return undefined;
};

/** Coerces a value to a schema; undefined when it cannot. */
function coerce(value: unknown, schema: Schema, pool: Fact[]): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(schema.enum)) {
    const options = schema.enum as unknown[];
    const candidates = Array.isArray(value) ? value : [value];
    for (const c of candidates) {
      const text = String(c).toLowerCase();
      const hit =
        options.find((o) => String(o).toLowerCase() === text) ??
        options.find((o) => o !== null && text.includes(String(o).toLowerCase()));
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  switch (typeOf(schema)) {
    case 'string':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number'))
        return value.length ? value.join(', ') : undefined;
      return undefined;
    case 'number':
    case 'integer': {
      const n =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())
            ? Number(value)
            : NaN;
      if (!Number.isFinite(n)) return undefined;
      return typeOf(schema) === 'integer' ? Math.round(n) : n;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|yes)$/i.test(value)) return true;
      if (typeof value === 'string' && /^(false|no)$/i.test(value)) return false;
      return undefined;
    case 'array': {
      const items = isObject(schema.items) ? schema.items : {};
      const list = Array.isArray(value) ? value : [value];
      const out = list.map((v) => coerce(v, items, [])).filter((v) => v !== undefined);
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
      return out.length ? out.slice(0, max) : undefined;
    }
    case 'object': {
      if (!isObject(value)) return undefined;
      const local: Fact[] = [];
      collect(value, [], false, local);
      const r = answerObject(schema, [...local, ...pool], [], []);
      return r.answered > 0 ? r.value : undefined;
    }
    default:
      return value;
  }
}

/**
 * Scores how well a fact's path names a property (0 = no match): words of the property name count most,
 * words of its description less, and a field name fully explained by them scores higher than a long one
 * that merely shares a word.
 */
function score(fact: Fact, name: string, nameTokens: string[], descTokens: string[]): number {
  const last = fact.path[fact.path.length - 1]!;
  if (last === name || last.toLowerCase() === name.toLowerCase())
    return 100 - fact.path.length + (fact.custom ? 50 : 0);
  const lastTokens = new Set(tokens(last));
  if (lastTokens.size === 0) return 0;
  const hits = new Set(nameTokens.filter((t) => lastTokens.has(t)));
  const nameHits = hits.size;
  const descLast = new Set(descTokens.filter((t) => lastTokens.has(t) && !nameTokens.includes(t))).size;
  if (nameHits + descLast === 0) return 0;
  // `ceo_name` must not match `company_name` on the generic word alone.
  const specific = nameTokens.some((t) => !GENERIC.has(t));
  if (descLast === 0 && specific && [...hits].every((t) => GENERIC.has(t))) return 0;
  const pathTokens = new Set(fact.path.slice(0, -1).flatMap(tokens));
  const descPath = descTokens.filter((t) => pathTokens.has(t)).length;
  const coverage = Math.min(1, (nameHits + descLast) / lastTokens.size);
  return (
    3 * nameHits +
    1.5 * descLast +
    0.5 * descPath +
    6 * coverage +
    (fact.custom ? 5 : 0) -
    0.1 * fact.path.length
  );
}

function answerProperty(name: string, schema: Schema, pool: Fact[]): unknown {
  const nameTokens = tokens(name);
  const descTokens = typeof schema.description === 'string' ? tokens(schema.description) : [];
  const ranked = pool
    .map((f) => ({ f, s: score(f, name, nameTokens, descTokens) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.f.path.join('.').localeCompare(b.f.path.join('.')));
  for (const { f } of ranked.slice(0, 20)) {
    const v = coerce(f.value, schema, pool);
    if (v !== undefined) return v;
  }
  return undefined;
}

function answerObject(
  schema: Schema,
  pool: Fact[],
  at: string[],
  missing: string[],
): { value: Record<string, unknown>; answered: number } {
  const props = isObject(schema.properties) ? schema.properties : {};
  const value: Record<string, unknown> = {};
  let answered = 0;
  for (const [name, sub] of Object.entries(props)) {
    const s = isObject(sub) ? sub : {};
    const v =
      typeOf(s) === 'object' && !Array.isArray(s.enum)
        ? nested(name, s, pool, [...at, name], missing)
        : answerProperty(name, s, pool);
    if (v === undefined) {
      value[name] = null;
      missing.push([...at, name].join('.'));
    } else {
      value[name] = v;
      answered++;
    }
  }
  return { value, answered };
}

/** A nested object property: answered from a same-named sub-object first, else from the whole pool. */
function nested(name: string, schema: Schema, pool: Fact[], at: string[], missing: string[]): unknown {
  const direct = answerProperty(name, schema, pool);
  if (direct !== undefined) return direct;
  const inner: string[] = [];
  const r = answerObject(schema, pool, at, inner);
  if (r.answered === 0) return undefined;
  missing.push(...inner);
  return r.value;
}

/** Answers a whole output schema from a record and custom fields. */
export function answerOffline(
  task: Pick<ResearchTask, 'record' | 'custom_fields' | 'output_schema'>,
): ResearchAnswer {
  const pool = facts(task.record, task.custom_fields);
  const schema = task.output_schema;
  let result: unknown;
  let unanswered: string[] = [];
  if (typeOf(schema) === 'object' || isObject(schema.properties)) {
    result = answerObject(schema, pool, [], unanswered).value;
  } else {
    const title = typeof schema.title === 'string' ? schema.title : '';
    const v = title ? answerProperty(title, schema, pool) : undefined;
    result = v ?? null;
    unanswered = v === undefined ? ['$'] : [];
  }
  return {
    result,
    unanswered: unanswered.sort(),
    note: 'Answered offline from the loaded record, its enrichments and custom_fields; no web research was performed. Null means the data holds no answer.',
  };
}

/** The offline provider (the default). */
export const offlineProvider: ResearchProvider = {
  name: 'offline',
  research: async (task) => answerOffline(task),
};
