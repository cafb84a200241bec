/**
 * Enrichment routes, generated from the enrichment table: v1 `/enrich` + `/bulk_enrich` per name, v2
 * `/enrich` (one id or a list). Only ids that return data are charged (menu operation per enrichment).
 */
import { billableUnits, enrich, type EnrichRow } from '../../core/enrich/enrich.js';
import { idKey } from '../../core/enrich/entities.js';
import { ENRICHMENTS, type EnrichmentDef, type Params } from '../../core/enrich/table.js';
import { bodyIds, enrichBody } from '../../schemas/enrich.js';
import type { ApiVersion, Route, RouteContext, RouteResult } from '../types.js';

type Form = 'enrich' | 'bulk' | 'v2';

function respond(def: EnrichmentDef, form: Form, rows: EnrichRow[]): RouteResult {
  const key = idKey(def.entity);
  const miss = rows.every((r) => r.status !== 'ok');
  if (form === 'enrich') {
    const row = rows[0];
    const data = def.shape === 'list' ? (row?.payloads ?? []) : (row?.payloads[0] ?? []);
    return { body: { data, entity_id: row?.id }, miss };
  }
  if (form === 'bulk') {
    const data = rows.flatMap((r) => r.payloads.map((p) => ({ [key]: r.id, data: p })));
    return { body: { data, total_results: data.length }, miss };
  }
  const data = rows
    .filter((r) => r.status === 'ok')
    .map((r) => ({ [key]: r.id, data: def.shape === 'list' ? r.payloads : r.payloads[0] }));
  return { body: { data, total_results: data.length }, miss };
}

function route(def: EnrichmentDef, form: Form): Route {
  const version: ApiVersion = form === 'v2' ? 2 : 1;
  const plural = def.entity === 'business' ? 'businesses' : 'prospects';
  const name = version === 1 ? def.name : def.v2Name;
  const suffix = form === 'bulk' ? 'bulk_enrich' : 'enrich';
  return {
    method: 'POST',
    path: `/v${version}/${plural}/${name}/${suffix}`,
    entitlement: def.entitlement,
    body: enrichBody(def.entity, form, def.params),
    handler(ctx: RouteContext<Record<string, unknown>>) {
      const params = ctx.body.parameters as Params;
      const rows = enrich(ctx.engine, def, bodyIds(def.entity, ctx.body), {
        version,
        params,
        defaultWaterfall: 'full',
      });
      const units = billableUnits(rows);
      if (units > 0) ctx.charge(def.operation(params), units);
      return respond(def, form, rows);
    },
  };
}

export const routes: Route[] = ENRICHMENTS.flatMap((def) => [
  route(def, 'enrich'),
  route(def, 'bulk'),
  route(def, 'v2'),
]);
