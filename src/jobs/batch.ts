/**
 * Computes one batch of a job: the enrichment (from the enrichment table) or the research over the ids,
 * turned into one result line per input row plus the charges the rows incur. Reads only; the worker
 * commits the lines and the charges together.
 */
import type { BatchWrite, JobRow } from './state.js';
import type { Context } from '../runtime/context.js';
import { enrich, type EnrichRow } from '../core/enrich/enrich.js';
import { idKey } from '../core/enrich/entities.js';
import { findEnrichment, type Params } from '../core/enrich/table.js';
import { runResearch } from '../core/research/research.js';
import type { ResearchProvider } from '../core/research/provider.js';
import type { ResearchParams } from '../schemas/research.js';
import { timeSlicer } from '../core/slices.js';

/** Ids enriched between two chances to yield (a few ms of work on the demo data). */
const ENRICH_CHUNK = 50;

/** The result lines and charges of `ids` (input rows `start …`). */
export async function computeBatch(
  engine: Context,
  job: JobRow,
  start: number,
  ids: readonly string[],
  provider?: ResearchProvider,
): Promise<BatchWrite> {
  const key = idKey(job.entity_type);
  const params = job.parameters === null ? null : (JSON.parse(job.parameters) as Params);
  if (job.enrichment === 'research') {
    const rows = await runResearch(
      engine,
      job.entity_type,
      ids.map((id) => ({ id })),
      params as unknown as ResearchParams,
      provider,
    );
    const ok = rows.filter((r) => r.status === 'ok').length;
    return {
      start,
      results: ok,
      charges: ok > 0 ? [{ operation: 'research', units: ok }] : [],
      lines: rows.map((r) =>
        r.status === 'ok'
          ? { [key]: r.id, result_status: 'ok', research_result: r.data.research_result }
          : r.status === 'error'
            ? { [key]: r.id, result_status: 'error', error: r.error }
            : { [key]: r.id, result_status: r.status },
      ),
    };
  }
  const def = findEnrichment(job.entity_type, job.enrichment, 2);
  if (!def) throw new Error(`unknown enrichment '${job.enrichment}'`);
  // In chunks, yielding between them: a 500-row batch in one piece held the event loop for 50–75 ms.
  const rows: EnrichRow[] = [];
  const slice = timeSlicer();
  for (let at = 0; at < ids.length; at += ENRICH_CHUNK) {
    const chunk = ids.slice(at, at + ENRICH_CHUNK);
    for (const row of enrich(engine, def, chunk, { version: 2, params, defaultWaterfall: 'explorium_only' }))
      rows.push(row);
    await slice();
  }
  // Every row with data is a billed result (an id listed twice is charged twice).
  const units = rows.filter((r) => r.status === 'ok').length;
  return {
    start,
    results: units,
    charges: units > 0 ? [{ operation: def.operation(params), units }] : [],
    lines: rows.map((r) => {
      const head = { [key]: r.id, result_status: r.status };
      if (r.status !== 'ok') return head;
      return def.shape === 'list' ? { ...head, results: r.payloads } : { ...head, ...r.payloads[0], ...head };
    }),
  };
}
