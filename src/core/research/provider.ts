/**
 * The research provider contract: one task per entity in, one answer out. Providers are swappable
 * (engine option `research.provider`): the offline provider answers from the loaded data, the
 * chat-completions provider asks an OpenAI-compatible endpoint.
 */
import type { EntityType } from '../enrich/entities.js';

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
