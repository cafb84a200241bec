/**
 * The research provider contract: one task per entity in, one answer out. Providers are swappable
 * (engine option `research.provider`): the offline provider answers from the loaded data, the
 * chat-completions provider asks an OpenAI-compatible endpoint.
 *
 * The types live in `schemas/research.ts` (the settings at the bottom of the engine name the provider).
 */
export type { ResearchAnswer, ResearchProvider, ResearchTask } from '../../schemas/research.js';
