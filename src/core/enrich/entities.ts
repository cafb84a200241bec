/**
 * Loads the records an enrichment reads: the stored record (`wire` + `rest`) of each business or prospect (prospects also
 * carry their employer's company columns). The statements are in `store/sql/search.ts`.
 */
import type { Context } from '../../runtime/context.js';
import type { Db } from '../../store/open.js';
import { decodeDoc, fileCodec } from '../../store/codec.js';
import { entityStatements } from '../../store/sql/search.js';
import type { BusinessRecord, ProspectRecord } from '../../schemas/records.js';

export type EntityType = 'business' | 'prospect';

export interface CompanyColumns {
  company_name: string | null;
  company_website: string | null;
  company_linkedin: string | null;
}

export type LoadedEntity =
  | { entity: 'business'; id: string; record: BusinessRecord }
  | { entity: 'prospect'; id: string; record: ProspectRecord; company: CompanyColumns };

interface Stored {
  wire: Buffer;
  rest: Buffer;
}

interface Statements {
  business: { get(id: string): Stored | undefined };
  prospect: { get(id: string): (Stored & CompanyColumns) | undefined };
}

const prepared = (db: Db) => entityStatements(db) as unknown as Statements;

/** The id column of an entity type. */
export const idKey = (entity: EntityType): 'business_id' | 'prospect_id' =>
  entity === 'business' ? 'business_id' : 'prospect_id';

/**
 * Loads the entities behind `ids`; unknown ids are absent from the map.
 * @example const found = loadEntities(engine, 'business', ['0f…']); found.get('0f…')?.record.name
 */
export function loadEntities(
  engine: Context,
  entity: EntityType,
  ids: readonly string[],
): Map<string, LoadedEntity> {
  const s = prepared(engine.db);
  const codec = fileCodec(engine.db);
  const out = new Map<string, LoadedEntity>();
  for (const id of ids) {
    if (out.has(id)) continue;
    if (entity === 'business') {
      const row = s.business.get(id);
      if (row) out.set(id, { entity, id, record: decodeDoc('businesses', row.wire, row.rest, codec) });
    } else {
      const row = s.prospect.get(id);
      if (row)
        out.set(id, {
          entity,
          id,
          record: decodeDoc('prospects', row.wire, row.rest, codec),
          company: {
            company_name: row.company_name,
            company_website: row.company_website,
            company_linkedin: row.company_linkedin,
          },
        });
    }
  }
  return out;
}
