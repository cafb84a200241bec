/**
 * `POST /v2/{businesses|prospects}/research/enrich`: 1..50 entities, each answered by the research
 * provider and validated against `output_schema` (an invalid schema is a 422). Charged `research` per
 * entity with a valid result.
 */
import { idKey, type EntityType } from '../../core/enrich/entities.js';
import { runResearch } from '../../core/research/research.js';
import { BusinessResearchBody, ProspectResearchBody, type ResearchParams } from '../../schemas/research.js';
import type { Route, RouteContext } from '../types.js';

function route(entity: EntityType): Route {
  const plural = entity === 'business' ? 'businesses' : 'prospects';
  const key = idKey(entity);
  return {
    method: 'POST',
    path: `/v2/${plural}/research/enrich`,
    body: entity === 'business' ? BusinessResearchBody : ProspectResearchBody,
    async handler(ctx: RouteContext<Record<string, unknown>>) {
      const raw = ctx.body[plural] as Record<string, unknown> | Record<string, unknown>[];
      const inputs = (Array.isArray(raw) ? raw : [raw]).map((i) => ({
        id: i[key] as string,
        custom_fields: i.custom_fields as Record<string, unknown> | null | undefined,
      }));
      const rows = await runResearch(ctx.engine, entity, inputs, ctx.body.parameters as ResearchParams);
      const data = rows.flatMap((r) =>
        r.status === 'ok'
          ? [{ [key]: r.id, data: r.data }]
          : r.status === 'error'
            ? [{ [key]: r.id, data: { research_result: null }, error: r.error }]
            : [],
      );
      const ok = rows.filter((r) => r.status === 'ok').length;
      if (ok > 0) ctx.charge('research', ok);
      const first = rows.find((r) => r.status !== 'not_found');
      const body: Record<string, unknown> = { data, total_results: data.length };
      if (first && 'prompt' in first) body.generated_prompt = first.prompt;
      return { body, miss: ok === 0 };
    },
  };
}

export const routes: Route[] = [route('business'), route('prospect')];
