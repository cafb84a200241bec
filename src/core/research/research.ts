/**
 * Research over businesses or prospects: renders the prompt per entity, asks the provider, and validates
 * every result against the caller's `output_schema`. A result that does not validate (or a provider
 * failure) becomes an `error` row, not charged.
 */
import type { Context } from '../../runtime/context.js';
import type { ResearchParams } from '../../schemas/research.js';
import { loadEntities, type EntityType, type LoadedEntity } from '../enrich/entities.js';
import { offlineProvider } from './offline.js';
import type { ResearchProvider } from './provider.js';
import { timeSlicer } from '../slices.js';
import { compileOutputSchema, describeErrors } from './schema.js';

export interface ResearchInput {
  id: string;
  custom_fields?: Record<string, unknown> | null;
}

export type ResearchRow =
  | { id: string; status: 'not_found' }
  | { id: string; status: 'error'; error: string; prompt: string }
  | { id: string; status: 'ok'; data: Record<string, unknown>; prompt: string };

/** The provider an engine uses: option `research.provider`, else the offline one. */
export function researchProvider(engine: Context): ResearchProvider {
  return engine.settings.researchProvider ?? offlineProvider;
}

const lookup = (path: string, scopes: Record<string, unknown>[]): unknown => {
  for (const scope of scopes) {
    let v: unknown = scope;
    for (const key of path.split('.'))
      v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
    if (v !== undefined) return v;
  }
  return undefined;
};

/**
 * The task text: `query` as is, or `prompt_template` with `{{field}}` (or `{field}`) placeholders filled
 * from custom_fields, then the record (dotted paths allowed); unknown placeholders stay as written.
 */
export function renderPrompt(
  params: ResearchParams,
  record: Record<string, unknown>,
  custom: Record<string, unknown>,
): string {
  const template = params.prompt_template ?? params.query ?? '';
  return template.replace(
    /\{\{\s*([\w.]+)\s*\}\}|\{([\w.]+)\}/g,
    (whole, a: string | undefined, b: string | undefined) => {
      const v = lookup((a ?? b)!, [custom, record]);
      if (v === undefined || v === null) return whole;
      return typeof v === 'string' ? v : JSON.stringify(v);
    },
  );
}

function recordOf(e: LoadedEntity): Record<string, unknown> {
  return e.entity === 'prospect' ? { ...e.record, ...e.company } : { ...e.record };
}

/**
 * Researches each input (input order kept). Throws a 422 when `output_schema` is not a JSON Schema.
 * @example await runResearch(engine, 'business', [{ id }], { output_schema, query: 'Who is the CEO?' })
 */
export async function runResearch(
  engine: Context,
  entity: EntityType,
  inputs: readonly ResearchInput[],
  params: ResearchParams,
  provider: ResearchProvider = researchProvider(engine),
  concurrency = 4,
): Promise<ResearchRow[]> {
  // The ids first: a cheap lookup. The schema's size was bounded by the request schema already.
  const found = loadEntities(
    engine,
    entity,
    inputs.map((i) => i.id),
  );
  const validate = compileOutputSchema(params.output_schema);
  const rows: ResearchRow[] = new Array<ResearchRow>(inputs.length);
  let next = 0;
  // A provider that answers at once (the offline one) would otherwise hold the loop for the whole list.
  const slice = timeSlicer();
  const worker = async () => {
    for (;;) {
      await slice();
      if (next >= inputs.length) return;
      const i = next++;
      const input = inputs[i]!;
      const e = found.get(input.id);
      if (!e) {
        rows[i] = { id: input.id, status: 'not_found' };
        continue;
      }
      const record = recordOf(e);
      const custom = input.custom_fields ?? {};
      const prompt = renderPrompt(params, record, custom);
      try {
        const answer = await provider.research({
          entity_type: entity,
          entity_id: input.id,
          record,
          custom_fields: custom,
          output_schema: params.output_schema,
          prompt,
        });
        if (!validate(answer.result)) {
          rows[i] = {
            id: input.id,
            status: 'error',
            prompt,
            error: `result does not match output_schema: ${describeErrors(validate)}`,
          };
          continue;
        }
        const data: Record<string, unknown> = {
          research_result: answer.result,
          research_provider: provider.name,
        };
        if (answer.note) data.research_note = answer.note;
        if (answer.unanswered) data.unanswered = answer.unanswered;
        if (answer.sources) data.sources = answer.sources;
        rows[i] = { id: input.id, status: 'ok', prompt, data };
      } catch (err) {
        rows[i] = { id: input.id, status: 'error', prompt, error: (err as Error).message };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, inputs.length)) }, worker));
  return rows;
}
