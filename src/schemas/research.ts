/**
 * Research requests (docs/spec/api-reference.md §13): `parameters` = `GenAIResearchParams {output_schema,
 * query, prompt_template}` (one of `query` or `prompt_template` is needed) and one input or a list of 1..50
 * inputs `{business_id | prospect_id, custom_fields?}`.
 */
import { z } from 'zod';
import type { EntityType } from './enums.js';
import { BusinessId, ProspectId } from './records.js';

/**
 * Bounds of a caller's `output_schema` (422 beyond them). A research schema describes one answer of a
 * language model: real ones hold a few dozen properties a few levels deep (structured-output services
 * document 100 properties and 5–10 levels of nesting). The bounds keep the walk, the ajv compile and the
 * validation of every answer small whatever a caller sends: ajv's compile costs about 0.3–1 ms per
 * property on a shared 2-core machine, and 10,000 properties held the event loop for 3–4 s.
 */
export const OUTPUT_SCHEMA_LIMITS = {
  /** JSON text of the whole schema, in characters (approximate: keys, strings and 8 per scalar). */
  maxChars: 32_768,
  /** Nesting of objects and arrays in the schema's JSON (a data level is about two of these). */
  maxDepth: 20,
  /** Entries under `properties`, `patternProperties`, `$defs`, `definitions`, all levels together. */
  maxProperties: 128,
  /** Objects, arrays and values in the schema, all levels together. */
  maxNodes: 2_048,
  /** Length of any key or string value. */
  maxStringLength: 1_024,
  /** Length of a `pattern` or a `patternProperties` key. */
  maxPatternLength: 512,
} as const;

const PROPERTY_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

type SchemaIssue = { path: (string | number)[]; message: string; type: string };

/**
 * The first bound an output schema breaks, or undefined. Stops as soon as one is broken, so its cost
 * is bounded by the limits and not by what was sent.
 */
export function outputSchemaIssue(schema: Record<string, unknown>): SchemaIssue | undefined {
  const L = OUTPUT_SCHEMA_LIMITS;
  let nodes = 0;
  let properties = 0;
  let chars = 0;
  const tooLong = (s: string, path: (string | number)[], max: number, what: string) =>
    s.length > max
      ? {
          path,
          message: `${what} longer than ${max} characters`,
          type: 'value_error.output_schema.string_length',
        }
      : undefined;
  const walk = (
    v: unknown,
    path: (string | number)[],
    depth: number,
    key?: string,
  ): SchemaIssue | undefined => {
    if (++nodes > L.maxNodes)
      return {
        path,
        message: `output_schema has more than ${L.maxNodes} nodes`,
        type: 'value_error.output_schema.size',
      };
    if (typeof v === 'string') {
      chars += v.length + 2;
      const max = key === 'pattern' ? L.maxPatternLength : L.maxStringLength;
      return tooLong(v, path, max, key === 'pattern' ? 'pattern' : 'string');
    }
    if (v === null || typeof v !== 'object') {
      chars += 8;
      return undefined;
    }
    if (depth > L.maxDepth)
      return {
        path,
        message: `output_schema nested deeper than ${L.maxDepth} levels`,
        type: 'value_error.output_schema.depth',
      };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const issue = walk(v[i], [...path, i], depth + 1);
        if (issue) return issue;
      }
      return undefined;
    }
    const map = key !== undefined && PROPERTY_MAPS.has(key);
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      chars += k.length + 4;
      const keyIssue = tooLong(
        k,
        [...path, k],
        map && key === 'patternProperties' ? L.maxPatternLength : L.maxStringLength,
        map && key === 'patternProperties' ? 'pattern' : 'key',
      );
      if (keyIssue) return keyIssue;
      if (map && ++properties > L.maxProperties)
        return {
          path: [...path, k],
          message: `output_schema has more than ${L.maxProperties} properties`,
          type: 'value_error.output_schema.properties',
        };
      // A property named "pattern" is a name, not a regex: only schema keywords count as keys here.
      const issue = walk(child, [...path, k], depth + 1, map ? undefined : k);
      if (issue) return issue;
      if (chars > L.maxChars)
        return {
          path,
          message: `output_schema longer than ${L.maxChars} characters`,
          type: 'value_error.output_schema.size',
        };
    }
    return undefined;
  };
  return walk(schema, [], 1);
}

export const ResearchParams = z
  .strictObject({
    output_schema: z.record(z.string(), z.unknown()).superRefine((schema, ctx) => {
      const issue = outputSchemaIssue(schema);
      if (issue)
        ctx.addIssue({
          code: 'custom',
          path: issue.path,
          message: issue.message,
          params: { type: issue.type },
        });
    }),
    query: z.string().min(1).nullish(),
    prompt_template: z.string().min(1).nullish(),
  })
  .refine((p) => Boolean(p.query) || Boolean(p.prompt_template), {
    message: 'either query or prompt_template is required',
  });
export type ResearchParams = z.output<typeof ResearchParams>;

const CustomFields = z.record(z.string(), z.unknown()).nullish();
const BusinessInput = z.strictObject({ business_id: BusinessId, custom_fields: CustomFields });
const ProspectInput = z.strictObject({ prospect_id: ProspectId, custom_fields: CustomFields });
const oneOrMany = <T extends z.ZodType>(t: T) => z.union([t, z.array(t).min(1).max(50)]);

export const BusinessResearchBody = z.strictObject({
  request_context: z.record(z.string(), z.unknown()).nullish(),
  parameters: ResearchParams,
  businesses: oneOrMany(BusinessInput),
});
export const ProspectResearchBody = z.strictObject({
  request_context: z.record(z.string(), z.unknown()).nullish(),
  parameters: ResearchParams,
  prospects: oneOrMany(ProspectInput),
});

/** The research provider contract (`core/research/provider.ts` explains it): one task per entity in. */
export interface ResearchTask {
  entity_type: EntityType;
  entity_id: string;
  /** The entity's record (enrichments included; prospects also carry their company columns). */
  record: Record<string, unknown>;
  custom_fields: Record<string, unknown>;
  /** The caller's JSON Schema of the result. */
  output_schema: Record<string, unknown>;
  /** The task, rendered from `query` or `prompt_template`. */
  prompt: string;
}

export interface ResearchAnswer {
  /** The structured result (validated against `output_schema` by the caller). */
  result: unknown;
  /** How the answer was produced, shown to the caller. */
  note?: string;
  /** Result paths the provider had no answer for (null in `result`). */
  unanswered?: string[];
  /** URLs the answer cites (web grounding). */
  sources?: string[];
}

export interface ResearchProvider {
  readonly name: string;
  research(task: ResearchTask): Promise<ResearchAnswer>;
}
