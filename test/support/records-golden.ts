/**
 * Test support: a digest of every fetch shape over the demo snapshot (core records of every row in
 * both modes; v1 and v2 fetch pages of both entities in both modes; every enrichment, v1 and v2, on a
 * sample entity). `test/records.golden.json` holds the digests the layout before schema 5 gave (made
 * by running `recordsGolden` on `main` at 288dd0c), so the records test proves the compact layout
 * answers byte for byte the same. Uses only APIs both layouts have.
 */
import { createHash } from 'node:crypto';
import { businessRecords, prospectRecords } from '../../src/core/records.js';
import { ENRICHMENTS } from '../../src/core/enrich/table.js';
import type { Engine } from '../../src/engine.js';
import { handle } from '../../src/facade/handle.js';
import { account } from './job-child.js';

// Without `other_names` (schema 6): the digests are those of the layout before schema 5, which had no
// such field; `test/other-names.test.ts` checks the field itself.
const withoutOtherNames = (k: string, value: unknown) => (k === 'other_names' ? undefined : value);
/**
 * SHA-256 of `JSON.stringify(v)` without `other_names`. An array is hashed element by element (the same
 * text, `[` elements joined by `,` `]`): one string of every record (10,000 prospects) cost twice the time.
 */
function sha(v: unknown): string {
  const hash = createHash('sha256');
  if (!Array.isArray(v)) return hash.update(JSON.stringify(v, withoutOtherNames)).digest('hex');
  hash.update('[');
  v.forEach((item: unknown, i) => {
    if (i > 0) hash.update(',');
    hash.update(JSON.stringify(item, withoutOtherNames) ?? 'null');
  });
  return hash.update(']').digest('hex');
}

const FETCHES: { name: string; body: Record<string, unknown> }[] = [
  { name: 'all', body: {} },
  { name: 'us', body: { filters: { country_code: { values: ['us'] } } } },
  { name: 'page 3', body: { page: 3 } },
];

/** Digests by name: equal digests, equal records (keys, order and values). */
export async function recordsGolden(engine: Engine): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const rowids = (table: string) =>
    engine.db.prepare(`SELECT rowid FROM ${table} ORDER BY rowid`).pluck().all() as number[];
  const p = rowids('prospects');
  const b = rowids('businesses');
  for (const mode of ['full', 'preview'] as const) {
    out[`core prospects ${mode}`] = sha(prospectRecords(engine, p, mode));
    out[`core businesses ${mode}`] = sha(businessRecords(engine, b, mode));
  }
  const { api_key } = await account(engine, 1_000_000_000);
  const post = async (path: string, body: unknown) => {
    const r = (await handle(engine, { method: 'POST', path, headers: { api_key }, body })) as {
      status: number;
      body: unknown;
    };
    // Without `response_context` (a correlation id and timings) and the v2 cursor (signed with the
    // file's own secret).
    const { response_context: _, ...rest } = r.body as Record<string, unknown>;
    const page = rest.page as { next_cursor?: unknown } | undefined;
    if (typeof page?.next_cursor === 'string') rest.page = { ...page, next_cursor: 'a cursor' };
    return { status: r.status, body: rest };
  };
  for (const v of ['v1', 'v2']) {
    for (const entity of ['prospects', 'businesses']) {
      for (const mode of ['full', 'preview']) {
        for (const f of FETCHES) {
          const body = { mode, page_size: 100, ...f.body };
          out[`${v} ${entity} ${mode} ${f.name}`] = sha(await post(`/${v}/${entity}`, body));
        }
      }
    }
  }
  const firstId = (table: string, col: string) =>
    engine.db.prepare(`SELECT ${col} FROM ${table} ORDER BY rowid LIMIT 1 OFFSET 7`).pluck().get() as string;
  const ids = {
    business: firstId('businesses', 'business_id'),
    prospect: firstId('prospects', 'prospect_id'),
  };
  for (const def of ENRICHMENTS) {
    const plural = def.entity === 'business' ? 'businesses' : 'prospects';
    const idKey = `${def.entity}_id`;
    const parameters = def.name === 'company_website_keywords' ? { keywords: ['data'] } : undefined;
    const id = ids[def.entity];
    out[`v1 enrich ${def.entity} ${def.name}`] = sha(
      await post(`/v1/${plural}/${def.name}/enrich`, { [idKey]: id, parameters }),
    );
    out[`v2 enrich ${def.entity} ${def.name}`] = sha(
      await post(`/v2/${plural}/${def.v2Name}/enrich`, { [`${idKey}s`]: [id], parameters }),
    );
  }
  return out;
}
