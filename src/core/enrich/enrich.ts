/**
 * Runs one enrichment over a list of ids: loads the records, builds the payloads from the enrichment table
 * and applies the v2 reshaping. Pure apart from reading the store; charging is the caller's job.
 */
import type { Context } from '../../runtime/context.js';
import { loadEntities } from './entities.js';
import type { Payload } from './payloads.js';
import type { BuildContext, EnrichmentDef } from './table.js';

/** One input id: `not_found` (no such entity), `no_data` (nothing for this enrichment) or `ok`. */
export interface EnrichRow {
  id: string;
  status: 'ok' | 'no_data' | 'not_found';
  payloads: Payload[];
}

/** Removes the v1-only `entity_id` and applies the enrichment's v2 renames and removals. */
function toV2(def: EnrichmentDef, p: Payload): Payload {
  const { entity_id: _drop, ...rest } = p;
  return def.v2 ? def.v2(rest) : rest;
}

/**
 * Enriches `ids` (input order kept, one row per id).
 * @example enrich(engine, findEnrichment('business', 'firmographics', 2)!, ids, { version: 2, params: null, defaultWaterfall: 'full' })
 */
export function enrich(
  engine: Context,
  def: EnrichmentDef,
  ids: readonly string[],
  ctx: BuildContext,
): EnrichRow[] {
  const found = loadEntities(engine, def.entity, ids);
  return ids.map((id) => {
    const entity = found.get(id);
    if (!entity) return { id, status: 'not_found', payloads: [] };
    let payloads = def.build(entity, ctx);
    if (ctx.version === 2) payloads = payloads.map((p) => toV2(def, p));
    if (def.shape === 'object') payloads = payloads.slice(0, 1);
    return { id, status: payloads.length > 0 ? 'ok' : 'no_data', payloads };
  });
}

/** Distinct ids that returned data: the units an enrichment charges. */
export function billableUnits(rows: readonly EnrichRow[]): number {
  return new Set(rows.filter((r) => r.status === 'ok').map((r) => r.id)).size;
}
